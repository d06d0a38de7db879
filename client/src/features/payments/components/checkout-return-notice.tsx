import type { MemberBilling } from '@common/schemas/payments';
import { CHECKOUT_RETURN_PARAM } from '@common/schemas/payments';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMemberBilling } from '../api';

/** How long Stripe's word is awaited (the tier read every 2 s); then the page says so plainly. */
export const CONFIRM_FOR_MS = 60_000;

const BOX = 'rounded-xl border px-4 py-3 text-sm';

/**
 * Shown on the page a member comes back to from Stripe Checkout (`?checkout=success` or
 * `?checkout=cancelled`). After a payment it reads the member's tier every 2 seconds until the
 * site has Stripe's confirmation (the webhook), so paid content appears without a reload; after a
 * minute it says so plainly. A cancelled checkout changed nothing, and it says that too.
 * `onPaid` is called once the payment is confirmed: a page that holds paid content reads it again.
 */
export function CheckoutReturnNotice({
  onPaid,
  courseId,
}: {
  onPaid?: () => void;
  /** Back from buying this course on its own (`?checkout=bought`): waits for it rather than the tier. */
  courseId?: string;
} = {}) {
  const [params, setParams] = useSearchParams();
  const [arrived] = useState(() => params.get(CHECKOUT_RETURN_PARAM));
  // A course's return is read as a payment only on that course's page.
  const outcome = arrived === 'bought' ? (courseId ? 'success' : null) : arrived;
  const [timedOut, setTimedOut] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const queryClient = useQueryClient();
  const waiting = outcome === 'success' && !timedOut;
  const confirmed = (data: MemberBilling | undefined) =>
    arrived === 'bought'
      ? Boolean(courseId && data?.boughtCourseIds.includes(courseId))
      : data?.tier === 'paid';
  const billing = useMemberBilling((data) => waiting && !confirmed(data));
  const paid = confirmed(billing.data);

  useEffect(() => {
    if (outcome !== 'success') return;
    const timer = setTimeout(() => setTimedOut(true), CONFIRM_FOR_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  const settled = outcome === 'cancelled' || paid || timedOut;
  // Once there is nothing left to wait for, a reload shows the page as usual.
  useEffect(() => {
    if (!outcome || !settled || !params.has(CHECKOUT_RETURN_PARAM)) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(CHECKOUT_RETURN_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [outcome, settled, params, setParams]);
  // The latest callback, without calling it again each time the page draws a new one.
  const paidCallback = useRef(onPaid);
  paidCallback.current = onPaid;
  useEffect(() => {
    if (!paid || outcome !== 'success') return;
    void queryClient.invalidateQueries({ queryKey: ['account'] });
    paidCallback.current?.();
  }, [paid, outcome, queryClient]);

  if (!outcome || dismissed || (outcome !== 'success' && outcome !== 'cancelled')) return null;
  if (outcome === 'cancelled')
    return (
      <Notice tone="neutral" onDismiss={() => setDismissed(true)}>
        Checkout cancelled: nothing was charged
        {arrived === 'bought' ? '' : ', and your membership is as it was'}.
      </Notice>
    );
  if (paid)
    return (
      <Notice tone="success" onDismiss={() => setDismissed(true)}>
        {arrived === 'bought'
          ? 'Payment confirmed: the course is yours. Thank you!'
          : 'Payment confirmed: welcome to the Architect Tier. Thank you!'}
      </Notice>
    );
  if (timedOut)
    return (
      <Notice tone="warning" onDismiss={() => setDismissed(true)}>
        Stripe has not confirmed your payment to us yet. It usually takes seconds;{' '}
        {arrived === 'bought' ? 'the course opens' : 'your paid membership starts'} as soon as it does.
        Refresh this page in a few minutes, and if you were charged and nothing has changed by tomorrow, reply
        to Stripe’s receipt e-mail.
      </Notice>
    );
  return (
    <Notice tone="progress">
      <span className="inline-flex items-center gap-2">
        <span
          aria-hidden="true"
          className="size-3.5 animate-spin rounded-full border-2 border-accent-300 border-t-transparent"
        />
        Thank you! Your payment is being confirmed with Stripe; this page updates by itself in a few seconds.
      </span>
    </Notice>
  );
}

const TONES = {
  neutral: 'border-white/15 bg-white/5 text-stone-200',
  success: 'border-emerald-500/40 bg-emerald-500/15 text-emerald-100',
  warning: 'border-amber-400/40 bg-amber-400/10 text-amber-100',
  progress: 'border-accent-400/40 bg-accent-400/10 text-stone-100',
} as const;

function Notice({
  tone,
  onDismiss,
  children,
}: {
  tone: keyof typeof TONES;
  onDismiss?: () => void;
  children: ReactNode;
}) {
  return (
    <div role="status" className={`${BOX} ${TONES[tone]} flex items-start justify-between gap-3`}>
      <div>{children}</div>
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Dismiss"
          className="-my-1 rounded px-2 py-1 text-stone-300 hover:bg-white/10 hover:text-white"
        >
          ×
        </button>
      )}
    </div>
  );
}
