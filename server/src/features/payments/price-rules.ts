import { describePlan } from '@common/payment-plans';
import { AppError } from '../../lib/app-error';
import { type PaymentProvider, type PriceReading, ProviderError } from './payment-provider';

/**
 * What a price may be used for. The membership is a subscription: an active price that recurs at
 * a fixed amount. A course bought on its own is paid once: an active one-time price of more than 0.
 */
export type PriceUse = 'membership' | 'course';

/** Why a price cannot serve `use`, in words the owner can act on; null when it can. */
export function priceProblem(
  id: string,
  reading: PriceReading,
  use: PriceUse,
  mode: 'test' | 'live',
): string | null {
  if ('missing' in reading)
    return reading.missing === 'other-mode'
      ? `${id} is a price of Stripe’s ${mode === 'test' ? 'live' : 'test'} mode, but the key is a ${mode}-mode key: pick a price made in ${mode} mode.`
      : `Stripe has no price ${id} in ${mode} mode: pick one from your prices listed below.`;
  const { price } = reading;
  const named = `${id} (${describePlan(price, 'en-GB')})`;
  if (price.archived) return `${named} is archived in Stripe: no one could buy it.`;
  if (use === 'membership') {
    if (price.kind === 'one-time') return `${named} is paid once: membership needs a recurring price.`;
    if (price.kind === 'metered')
      return `${named} is metered (billed by usage): membership needs a fixed amount per period.`;
    return null;
  }
  if (price.kind !== 'one-time') return `${named} recurs: a course is bought once, so pick a one-time price.`;
  if (price.amount === null || price.amount <= 0)
    return `${named} costs nothing or lets the buyer choose: a course’s price must be more than 0.`;
  return null;
}

export const modeOfKey = (key: string): 'test' | 'live' => (key.includes('_live_') ? 'live' : 'test');

/**
 * Asks the provider about each price and throws the first problem for `use` as a VALIDATION
 * error: a save with a price no one could buy is refused and nothing changes.
 */
export async function refuseUnfitPrices(
  provider: PaymentProvider,
  ids: readonly string[],
  use: PriceUse,
  mode: 'test' | 'live',
): Promise<void> {
  for (const id of ids) {
    let reading: PriceReading;
    try {
      reading = await provider.readPrice(id);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      throw new AppError('UNAVAILABLE', `The price could not be checked with Stripe: ${error.message}`);
    }
    const problem = priceProblem(id, reading, use, mode);
    if (problem) throw new AppError('VALIDATION', problem);
  }
}
