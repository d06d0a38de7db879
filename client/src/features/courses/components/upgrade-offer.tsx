import { PUBLIC_PAGES } from '@common/public-pages';
import type { UpgradeOfferSettings } from '@common/schemas/course-views';
import type { ReactNode } from 'react';
import { readSession } from '../../../lib/auth-token';
import { useStoredToken } from '../../../lib/use-stored-token';

const LINK_CLASS =
  'inline-flex items-center rounded-full bg-accent-400 px-5 py-2 text-sm font-semibold text-stone-950 hover:bg-accent-300';
/** Beside the Upgrade button, which is then the one main action. */
const QUIET_LINK_CLASS = 'inline-block font-semibold text-accent-300 underline-offset-4 hover:underline';

/** Where a signed-in member upgrades: the dashboard's membership card, which holds the Upgrade button. */
export const MEMBER_UPGRADE_PATH = '/dashboard#membership-heading';

/**
 * The owner's link, except that the registration form is no way in for someone who already has
 * an account: a signed-in member following it goes to where they upgrade instead.
 */
export function upgradeHref(url: string, signedIn: boolean): string {
  const path = url.startsWith('/') ? url.split(/[?#]/)[0] : null;
  return signedIn && path === PUBLIC_PAGES.join.path ? MEMBER_UPGRADE_PATH : url;
}

/**
 * What the paid tier offers, in the owner's words (the console's Courses settings): a sentence
 * and a link. The one place free members are invited to upgrade, so the payment feature's own
 * button goes here too (`children`, given only when Stripe is connected): it is then the main
 * action, and the owner's link a plain one below it.
 */
export function UpgradeOffer({
  offer,
  children,
  className = '',
}: {
  offer: UpgradeOfferSettings | null;
  children?: ReactNode;
  className?: string;
}) {
  const signedIn = Boolean(readSession(useStoredToken()));
  if (!offer && !children) return null;
  const external = offer?.upgradeLinkUrl.startsWith('https://');
  const link = offer?.upgradeLinkUrl && (
    <a
      href={upgradeHref(offer.upgradeLinkUrl, signedIn)}
      className={children ? QUIET_LINK_CLASS : LINK_CLASS}
      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
    >
      {offer.upgradeLinkLabel || 'Upgrade'}
    </a>
  );
  return (
    <div
      data-testid="upgrade-offer"
      className={`rounded-xl border border-accent-400/30 bg-accent-400/10 p-4 text-sm text-stone-100 ${className}`}
    >
      {offer?.upgradeText && <p>{offer.upgradeText}</p>}
      {children ? (
        <>
          <div className={offer?.upgradeText ? 'mt-4' : ''}>{children}</div>
          {link && <p className="mt-3">{link}</p>}
        </>
      ) : (
        link && <div className="mt-3 flex flex-wrap items-center gap-3">{link}</div>
      )}
    </div>
  );
}
