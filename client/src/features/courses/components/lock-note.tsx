import type { Lock, UpgradeOfferSettings } from '@common/schemas/course-views';
import { Link } from 'react-router';
import { formatDay } from '../format';
import { LockIcon } from './lock-icon';
import { UpgradeOffer } from './upgrade-offer';

/** Why something is locked, and the way in: sign in, the owner's upgrade offer, or the day it opens. */
export function LockNote({
  lock,
  offer,
  signedIn,
}: {
  lock: Lock;
  offer: UpgradeOfferSettings | null;
  signedIn: boolean;
}) {
  return (
    <div className="space-y-3" data-testid="lock-note">
      <p className="flex items-start gap-2 text-stone-100">
        <LockIcon className="mt-1 size-4 text-amber-300" />
        <span>
          {lock.message}
          {lock.opensAt && lock.reason === 'drip' && (
            <>
              {' '}
              <span className="text-stone-300">({formatDay(lock.opensAt)})</span>
            </>
          )}
        </span>
      </p>
      {lock.reason === 'sign-in' && (
        <p className="flex flex-wrap gap-3 text-sm">
          <Link to="/login" className="font-semibold text-accent-300 hover:text-accent-400">
            Sign in
          </Link>
          <Link to="/join" className="font-semibold text-accent-300 hover:text-accent-400">
            Create a free account
          </Link>
        </p>
      )}
      {lock.reason === 'upgrade' &&
        (signedIn ? (
          <UpgradeOffer offer={offer} />
        ) : (
          <p className="flex flex-wrap gap-3 text-sm">
            <Link to="/join" className="font-semibold text-accent-300 hover:text-accent-400">
              Create an account
            </Link>
            <Link to="/login" className="font-semibold text-accent-300 hover:text-accent-400">
              Sign in
            </Link>
          </p>
        ))}
    </div>
  );
}
