import { withNextPage } from '@common/next-page';
import { formatAmount } from '@common/payment-plans';
import type { CoursePrice, Lock, UpgradeOfferSettings } from '@common/schemas/course-views';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LockIcon } from './lock-icon';
import { UpgradeOffer } from './upgrade-offer';

const ACTION_LINK = 'font-semibold text-accent-300 hover:text-accent-400';

/**
 * Why something is locked, and the way in: sign in, the owner's upgrade offer, or the day it
 * opens. A visitor at a paid lock is shown the offer too, with joining as the first step.
 */
export function LockNote({
  lock,
  offer,
  signedIn,
  memberOffer,
  coursePrice,
  returnPath,
}: {
  lock: Lock;
  offer: UpgradeOfferSettings | null;
  signedIn: boolean;
  /** What a signed-in member sees at a paid lock instead of the owner's offer alone (it with the Upgrade button). */
  memberOffer?: ReactNode;
  /** A visitor at the paid lock of a course sold on its own: its price, and joining to buy it. */
  coursePrice?: CoursePrice | null;
  /** The page a visitor comes back to after joining or signing in to buy. */
  returnPath?: string;
}) {
  return (
    <div className="space-y-3" data-testid="lock-note">
      <p className="flex items-start gap-2 text-stone-100">
        <LockIcon className="mt-1 size-4 text-amber-300" />
        {/* The server's message already names the day, in the site's one way of writing it. */}
        <span>{lock.message}</span>
      </p>
      {lock.reason === 'sign-in' && (
        <p className="flex flex-wrap gap-3 text-sm">
          <Link to="/login" className={ACTION_LINK}>
            Sign in
          </Link>
          <Link to="/join" className={ACTION_LINK}>
            Create a free account
          </Link>
        </p>
      )}
      {lock.reason === 'upgrade' &&
        (signedIn ? (
          (memberOffer ?? <UpgradeOffer offer={offer} />)
        ) : (
          <>
            <UpgradeOffer offer={offer} />
            {coursePrice && returnPath ? (
              <VisitorBuyNote price={coursePrice} returnPath={returnPath} />
            ) : (
              <p className="flex flex-wrap gap-3 text-sm">
                <Link to="/join" className={ACTION_LINK}>
                  Create an account
                </Link>
                <Link to="/login" className={ACTION_LINK}>
                  Sign in
                </Link>
              </p>
            )}
          </>
        ))}
    </div>
  );
}

/**
 * A visitor at the paid lock of a course sold on its own: the same price line a free member
 * reads, and the way to Buy: joining or signing in first, which brings them back to the course
 * (`?next=`), where Buy waits. The price is the course answer's, so no payments code loads here.
 */
function VisitorBuyNote({ price, returnPath }: { price: CoursePrice; returnPath: string }) {
  const words = formatAmount(price.amount, price.currency);
  return (
    <div className="space-y-3 rounded-xl border border-white/10 bg-black/20 p-4">
      <p className="text-stone-200">
        Or buy this course on its own for <strong className="font-semibold text-white">{words}</strong>, paid
        once: it stays yours whatever your membership. Create a free account or sign in, and you come back
        here to buy it.
      </p>
      <p className="flex flex-wrap gap-3 text-sm">
        <Link to={withNextPage('/join', returnPath)} className={ACTION_LINK}>
          Create an account to buy it
        </Link>
        <Link to={withNextPage('/login', returnPath)} className={ACTION_LINK}>
          Sign in to buy it
        </Link>
      </p>
    </div>
  );
}
