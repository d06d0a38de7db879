/**
 * The prices a member can choose, and how they read ("£12.00 a month"). Apart from the payment
 * schemas so that a public page (/join) can describe a price without loading zod.
 */

/** A price a member can choose, as the provider describes it. */
export interface PaymentPlan {
  id: string;
  /** The price's own name in Stripe (its nickname), if it has one. */
  name: string | null;
  /** In the currency's smallest unit (cents); null when unknown. */
  amount: number | null;
  currency: string | null;
  interval: 'day' | 'week' | 'month' | 'year' | null;
  intervalCount: number;
}

/** "£12.00 a month", "€100.00 every 2 years", "price_123" when the amount is unknown. */
export function describePlan(plan: PaymentPlan, locale?: string): string {
  if (plan.amount === null || !plan.currency) return plan.name ?? 'Paid membership';
  const price = formatAmount(plan.amount, plan.currency, locale);
  if (!plan.interval) return price;
  return plan.intervalCount > 1
    ? `${price} every ${plan.intervalCount} ${plan.interval}s`
    : `${price} a ${plan.interval}`;
}

/** "£49.00": an amount in the currency's smallest unit (cents), as the reader's locale writes it. */
export function formatAmount(amount: number, currency: string, locale?: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(
      amount / 100,
    );
  } catch {
    return `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/**
 * A price of the owner's Stripe account as the console's price list shows it: what a member
 * would pay, whether it recurs (`recurring`, `metered`: billed by usage) or is paid once
 * (`one-time`, for a course bought on its own), and whether it is archived in Stripe.
 */
export interface PriceListing extends PaymentPlan {
  /** The name of the product it is a price of, as Stripe shows it. */
  product: string | null;
  kind: 'recurring' | 'metered' | 'one-time';
  archived: boolean;
}
