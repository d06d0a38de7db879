import type { Lock, UpgradeOfferSettings } from '@common/schemas/course-views';
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
}: {
  lock: Lock;
  offer: UpgradeOfferSettings | null;
  signedIn: boolean;
  /** What a signed-in member sees at a paid lock instead of the owner's offer alone (it with the Upgrade button). */
  memberOffer?: ReactNode;
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
            <p className="flex flex-wrap gap-3 text-sm">
              <Link to="/join" className={ACTION_LINK}>
                Create an account
              </Link>
              <Link to="/login" className={ACTION_LINK}>
                Sign in
              </Link>
            </p>
          </>
        ))}
    </div>
  );
}
