import { describePlan } from '@common/payment-plans';
import { CHECKOUT_RETURN_PARAM } from '@common/schemas/payments';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { useBuyCourse, useCourseOffer } from '../api';
import { useResetOnReturn } from '../use-reset-on-return';

/**
 * Buy one course on its own, at the price the owner set on it: shown to a signed-in free member at
 * the course's paid lock, beside the Upgrade buttons, while the course is sold on its own and no
 * purchase of it is being confirmed. Paid once, it stays theirs whatever their membership.
 */
export function BuyCourse({
  courseId,
  returnPath,
  preview = false,
}: {
  courseId: string;
  returnPath: string;
  /** The owner previewing as a free member: the button shows, and starts nothing. */
  preview?: boolean;
}) {
  const offer = useCourseOffer(courseId);
  const buy = useBuyCourse();
  const [params] = useSearchParams();
  useResetOnReturn(buy.reset);
  const price = offer.data?.available ? offer.data.price : null;
  if (!price || params.get(CHECKOUT_RETURN_PARAM) === 'bought') return null;
  const words = describePlan(price);
  return (
    <div className="space-y-3 rounded-xl border border-white/10 bg-black/20 p-4">
      <p className="text-stone-200">
        Or buy this course on its own for <strong className="font-semibold text-white">{words}</strong>, paid
        once: it stays yours whatever your membership.
      </p>
      <Button
        variant="secondary"
        onClick={() => (preview ? undefined : buy.mutate({ courseId, returnPath }))}
        disabled={buy.isPending}
        className="w-full sm:w-auto"
      >
        {buy.isPending ? 'Going to Stripe…' : `Buy this course — ${words}`}
      </Button>
      {buy.isError && <FormMessage tone="error">{buy.error.message}</FormMessage>}
    </div>
  );
}
