import type { PriceListing } from '@common/payment-plans';
import type Stripe from 'stripe';
import type { PriceReading } from '../payment-provider';
import { errorOf, isMissing, providerError } from './errors';
import { toPlan } from './shapes';

/* The owner's prices as Stripe holds them: the console's price list, and one price read to be checked. */

/** Stripe's words for an id of the other mode: "…; a similar object exists in live mode, but a test mode key was used…". */
export const OTHER_MODE = /similar object exists in (?:live|test) mode/;

/** The console lists at most this many prices (newest first): an owner has a handful. */
const LISTED_PRICES = 100;

type Loose = Record<string, unknown>;

export function toListing(price: Stripe.Price): PriceListing {
  const product = price.product as unknown;
  return {
    ...toPlan(price),
    product:
      product && typeof product === 'object' && typeof (product as Loose).name === 'string'
        ? String((product as Loose).name)
        : null,
    kind: !price.recurring ? 'one-time' : price.recurring.usage_type === 'metered' ? 'metered' : 'recurring',
    archived: !price.active,
  };
}

/** Every price of the account in the key's mode, active and archived, each with its product's name. */
export async function listPrices(client: Stripe): Promise<PriceListing[]> {
  try {
    const listed: PriceListing[] = [];
    for await (const price of client.prices.list({ limit: LISTED_PRICES, expand: ['data.product'] })) {
      listed.push(toListing(price));
      if (listed.length >= LISTED_PRICES) break;
    }
    return listed;
  } catch (error) {
    throw providerError(error);
  }
}

/**
 * One price, or why there is none: Stripe answers "a similar object exists in live mode" for a
 * price of the other mode, which the owner is told in those words (the usual slip).
 */
export async function readPrice(client: Stripe, id: string): Promise<PriceReading> {
  try {
    return { price: toListing(await client.prices.retrieve(id, { expand: ['product'] })) };
  } catch (error) {
    if (!isMissing(error)) throw providerError(error);
    return {
      missing: OTHER_MODE.test(errorOf(error)?.message ?? '') ? 'other-mode' : 'absent',
    };
  }
}
