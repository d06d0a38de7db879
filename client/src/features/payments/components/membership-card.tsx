import { Link } from 'react-router';
import { Card } from '../../../components/ui/card';
import { useMemberBilling } from '../api';
import { CheckoutReturnNotice } from './checkout-return-notice';
import { UpgradeButton } from './upgrade-button';

const LINK = 'font-semibold text-accent-300 underline-offset-4 hover:underline';

/**
 * The member dashboard's paid-tier area: what the Architect Tier opens for a paid member, the
 * offer and the Upgrade button for a free one (when the owner has connected Stripe), and how a
 * checkout just made is going.
 */
export function MembershipCard() {
  const billing = useMemberBilling();
  const data = billing.data;
  const paid = data?.tier === 'paid';
  if (!data || (!paid && !data.available))
    return (
      <div className="mt-6 w-full max-w-lg empty:hidden">
        <CheckoutReturnNotice />
      </div>
    );
  return (
    <div className="mt-6 w-full max-w-lg space-y-4">
      <CheckoutReturnNotice />
      <section aria-labelledby="membership-heading">
        <Card className={paid ? 'border-emerald-400/30' : ''}>
          <p className="text-xs font-semibold uppercase tracking-[0.2em] text-accent-300">
            {paid ? 'Your membership' : 'Paid membership'}
          </p>
          <h2 id="membership-heading" className="mt-1 font-display text-2xl text-white">
            Architect Tier
          </h2>
          {paid ? (
            <>
              <p className="mt-3 text-stone-200">
                Your Architect Tier membership is active: the paid courses and lessons are open to you.
              </p>
              <p className="mt-4 text-sm text-stone-400">
                Your plan, receipts and card are on your{' '}
                <Link to="/account" className={LINK}>
                  account page
                </Link>
                .
              </p>
            </>
          ) : (
            <>
              <p className="mt-3 text-stone-200">
                Go further with the Architect Tier: every paid course and lesson, as soon as you join.
              </p>
              <UpgradeButton returnPath="/dashboard" className="mt-5" />
            </>
          )}
        </Card>
      </section>
    </div>
  );
}
