import type { UpgradeOfferSettings } from '@common/schemas/course-views';
import type { ReactNode } from 'react';

const LINK_CLASS =
  'inline-flex items-center rounded-full bg-accent-400 px-5 py-2 text-sm font-semibold text-stone-950 hover:bg-accent-300';

/**
 * What the paid tier offers, in the owner's words (the console's Courses settings): a sentence
 * and a link. The one place free members are invited to upgrade, so the payment feature's own
 * button goes here too (`children`).
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
  if (!offer && !children) return null;
  const external = offer?.upgradeLinkUrl.startsWith('https://');
  return (
    <div
      data-testid="upgrade-offer"
      className={`rounded-xl border border-accent-400/30 bg-accent-400/10 p-4 text-sm text-stone-100 ${className}`}
    >
      {offer?.upgradeText && <p>{offer.upgradeText}</p>}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {offer?.upgradeLinkUrl && (
          <a
            href={offer.upgradeLinkUrl}
            className={LINK_CLASS}
            {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
          >
            {offer.upgradeLinkLabel || 'Upgrade'}
          </a>
        )}
        {children}
      </div>
    </div>
  );
}
