import { describePlan } from '@common/payment-plans';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { useCheckout, usePaymentPlans } from '../api';
import { useResetOnReturn } from '../use-reset-on-return';

export interface UpgradeButtonProps {
  /**
   * The page the member comes back to from Stripe: /dashboard, /account or a page under
   * /courses. It shows <CheckoutReturnNotice /> to say how the payment went.
   */
  returnPath: string;
  className?: string;
}

/**
 * Upgrade to the paid tier: one button per price the owner offers ("Upgrade — £12.00 a month"),
 * each starting Stripe Checkout for the signed-in member. Renders nothing while Stripe is not
 * connected, so any page may show it wherever a free member meets paid content.
 */
export function UpgradeButton({ returnPath, className = '' }: UpgradeButtonProps) {
  const plans = usePaymentPlans();
  const checkout = useCheckout();
  useResetOnReturn(checkout.reset);
  if (!plans.data?.available) return null;
  const only = plans.data.plans.length === 1;
  return (
    <div className={`space-y-3 ${className}`}>
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        {plans.data.plans.map((plan) => {
          const going = checkout.isPending && checkout.variables?.priceId === plan.id;
          return (
            <Button
              key={plan.id}
              onClick={() => checkout.mutate({ priceId: plan.id, returnPath })}
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
