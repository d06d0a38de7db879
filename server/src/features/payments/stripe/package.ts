import type Stripe from 'stripe';

/**
 * The `stripe` package, loaded when the site first talks to Stripe (a checkout, a portal, an
 * event, the console's check), not when the server starts: it costs every server process about
 * 20 MB, and a site without payments never needs it (docs/performance.md).
 */
export type StripePackage = typeof Stripe;

let loading: Promise<StripePackage> | undefined;
let loaded: StripePackage | undefined;

export function stripePackage(): Promise<StripePackage> {
  loading ??= import('stripe').then(({ default: Stripe }) => {
    loaded = Stripe;
    return Stripe;
  });
  return loading;
}

/**
 * The package once loaded, else undefined: until then no error can have come from Stripe, so
 * `error instanceof` one of its classes is false without loading it.
 */
export function loadedStripePackage(): StripePackage | undefined {
  return loaded;
}
