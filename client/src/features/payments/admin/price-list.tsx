import { describePlan, type PriceListing } from '@common/payment-plans';
import { Card } from '../../../components/ui/card';
import { usePriceList } from './api';

export interface PriceListProps {
  /** A key is set: Stripe can be asked. */
  connected: boolean;
  /** The membership prices as typed in the form (not yet saved). */
  offered: string[];
  /** Fixed by STRIPE_PRICE_IDS: shown, not picked. */
  fixed: boolean;
  onOffer: (priceIds: string[]) => void;
}

const KIND_WORDS: Record<PriceListing['kind'], string> = {
  recurring: 'Recurring',
  metered: 'Metered (by usage)',
  'one-time': 'Paid once',
};

/**
 * The owner's prices as Stripe holds them, with their amounts: the membership's are ticked here
 * (then saved with the form) so that no one pastes an ID blind. Archived, metered and one-off
 * prices cannot be offered for the membership and say why.
 */
export function PriceList({ connected, offered, fixed, onOffer }: PriceListProps) {
  const list = usePriceList(connected);
  const toggle = (id: string, on: boolean) =>
    onOffer(on ? [...offered.filter((other) => other !== id), id] : offered.filter((other) => other !== id));
  return (
    <Card>
      <h2 className="text-lg font-semibold text-white">Your prices in Stripe</h2>
      <p className="mt-1 text-sm text-stone-300">
        Tick the prices members may choose for the Architect Tier, then Save Configuration. Make new prices on
        a product’s page in Stripe; they appear here.
      </p>
      {!connected ? (
        <p className="mt-4 text-sm text-stone-400">Save the secret key to see your prices.</p>
      ) : list.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-300">
          {(list.error as Error).message}
        </p>
      ) : !list.data ? (
        <p className="mt-4 text-sm text-stone-400">Reading your prices from Stripe…</p>
      ) : list.data.prices.length === 0 ? (
        <p className="mt-4 text-sm text-stone-300">
          Stripe has no prices in {list.data.mode} mode yet: add a product with a monthly price in Stripe.
        </p>
      ) : (
        <ul aria-label="Prices in Stripe" className="mt-4 divide-y divide-white/10">
          {list.data.prices.map((price) => {
            const offerable = price.kind === 'recurring' && !price.archived;
            const checked = offered.includes(price.id);
            return (
              <li key={price.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:gap-4">
                <div className="min-w-0 flex-1">
                  <p className="text-stone-100">
                    <span className="font-medium">{describePlan(price, 'en-GB')}</span>
                    {(price.product || price.name) && (
                      <span className="text-stone-300">
                        {' '}
                        · {[price.product, price.name].filter(Boolean).join(', ')}
                      </span>
                    )}
                  </p>
                  <p className="mt-0.5 break-all text-xs text-stone-400">
                    {KIND_WORDS[price.kind]} · <code>{price.id}</code>
                    {price.archived && (
                      <span className="ml-2 rounded bg-stone-700 px-1.5 py-0.5 font-semibold text-stone-200">
                        Archived
                      </span>
                    )}
                  </p>
                </div>
                {offerable || checked ? (
                  <label className="flex shrink-0 items-center gap-2 text-sm text-stone-200">
                    <input
                      type="checkbox"
                      className="size-4 accent-amber-400"
                      checked={checked}
                      disabled={fixed}
                      onChange={(event) => toggle(price.id, event.target.checked)}
                    />
                    Offer for the membership
                  </label>
                ) : (
                  <span className="shrink-0 text-xs text-stone-400">
                    {price.archived
                      ? 'Archived: no one can buy it'
                      : price.kind === 'one-time'
                        ? 'For a course sold on its own'
                        : 'Cannot be offered'}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
