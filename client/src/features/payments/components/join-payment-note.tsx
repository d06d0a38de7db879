import { describePlan } from '@common/payment-plans';
import type { PaymentPlansResponse } from '@common/schemas/payments';
import { useEffect, useState } from 'react';
import { api } from '../../../lib/api-client';

/**
 * On /join, once the owner has connected Stripe: the Architect Tier is paid after enrolment on
 * Stripe's page. Asked for after the page is shown (public pages carry no query library), so the
 * pre-rendered page stays the same; without Stripe, or if the question fails, nothing is shown.
 */
export function JoinPaymentNote() {
  const [prices, setPrices] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api<PaymentPlansResponse>('/api/payments/plans', { signal: controller.signal })
      .then((answer) => {
        if (answer.available) setPrices(answer.plans.map((plan) => describePlan(plan)).join(' or '));
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  if (!prices) return null;
  return (
    <p className="mb-3 text-sm text-stone-300">
      The Architect Tier ({prices}) is paid after you enrol, on Stripe’s secure page, from your dashboard.
    </p>
  );
}
