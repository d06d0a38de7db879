import { describePlan } from '@common/payment-plans';
import { CHECKOUT_RETURN_PARAM } from '@common/schemas/payments';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { useCheckout, usePaymentPlans } from '../api';
import { useResetOnReturn } from '../use-reset-on-return';

export interface UpgradeButtonProps {
  /** The owner previewing a page as a free member: the buttons show, and start nothing. */
  preview?: boolean;
  /**
   * The page the member comes back to from Stripe: /dashboard, /account or a page under
   * /courses. It shows <CheckoutReturnNotice /> to say how the payment went.
   */
  returnPath: string;
  className?: string;
}

/**
 * Whether <UpgradeButton /> shows: Stripe is connected (the server's `available`), and no payment
 * just made is being confirmed (the page still has `?checkout=success`, which
 * <CheckoutReturnNotice /> takes away once settled): a second click would be a second subscription.
 */
export function useUpgradeShown(): boolean {
  const plans = usePaymentPlans();
  const [params] = useSearchParams();
  const confirming = ['success', 'bought'].includes(params.get(CHECKOUT_RETURN_PARAM) ?? '');
  return Boolean(plans.data?.available) && !confirming;
}

/**
 * Upgrade to the paid tier: one button per price the owner offers ("Upgrade — £12.00 a month"),
 * each starting Stripe Checkout for the signed-in member. Renders nothing unless useUpgradeShown,
 * so any page may show it wherever a free member meets paid content.
 */
export function UpgradeButton({ returnPath, className = '', preview = false }: UpgradeButtonProps) {
  const plans = usePaymentPlans();
  const checkout = useCheckout();
  const shown = useUpgradeShown();
  useResetOnReturn(checkout.reset);
  if (!shown || !plans.data) return null;
  const only = plans.data.plans.length === 1;
  return (
    <div className={`space-y-3 ${className}`}>
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        {plans.data.plans.map((plan) => {
          const going = checkout.isPending && checkout.variables?.priceId === plan.id;
          return (
            <Button
              key={plan.id}
              // The owner previewing as a free member sees the buttons; they start no checkout.
              onClick={() => (preview ? undefined : checkout.mutate({ priceId: plan.id, returnPath }))}
              disabled={checkout.isPending}
              className="w-full sm:w-auto"
            >
              {going
                ? 'Going to Stripe…'
                : only
                  ? `Upgrade — ${describePlan(plan)}`
                  : `Upgrade: ${describePlan(plan)}`}
            </Button>
          );
        })}
      </div>
      <p className="text-xs text-stone-400">
        You pay on Stripe’s secure page; this site never sees your card. Cancel any time from your account.
      </p>
      {checkout.isError && <FormMessage tone="error">{checkout.error.message}</FormMessage>}
    </div>
  );
}
