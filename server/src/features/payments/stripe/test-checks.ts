import type { PaymentsCheck } from '@common/schemas/payments';
import type Stripe from 'stripe';
import { errorOf, isAuthentication, isMissing, isPermission, keyProblem, providerError } from './errors';
import { PERMISSIONS } from './permissions';
import { OTHER_MODE } from './prices';
import { priceCheck } from './shapes';

/**
 * The console's Test: whether Stripe accepts the key, whether the key may use every resource the
 * site's calls need (a restricted key missing one would pass Checkout and then fail every event),
 * and whether each price exists and can be subscribed to, in plain words.
 */
export async function testSettings(
  client: Stripe,
  secretKey: string | undefined,
  priceIds: readonly string[],
): Promise<PaymentsCheck[]> {
  const mode = secretKey?.includes('_live_') ? 'live' : 'test';
  const keyAccepted: PaymentsCheck = {
    label: 'Secret key',
    outcome: 'ok',
    detail: `Stripe accepted the key (${mode} mode).`,
  };
  const checks: PaymentsCheck[] = [];
  // Every resource the site's calls need, each read once (a restricted key with Write may read):
  // a key missing one would pass Checkout and then fail every event, members paying and staying free.
  const missing: PaymentsCheck[] = [];
  for (const need of PERMISSIONS) {
    try {
      const answer = await need.read(client);
      if (need.label === 'Customer portal' && !answer)
        checks.push({
          label: 'Customer portal',
          outcome: 'warning',
          detail:
            'The Customer Portal is not set up in Stripe (Settings → Billing → Customer portal): Manage billing would fail.',
        });
    } catch (error) {
      if (isAuthentication(error) || !isPermission(error))
        return [{ label: 'Secret key', outcome: 'failed', detail: keyProblem(error) }];
      missing.push({
        label: `Permission: ${need.label}`,
        outcome: 'failed',
        detail: `The key may not use ${need.what}: give the restricted key “${need.label}: ${need.access ?? 'Write'}”. ${need.why}`,
      });
    }
  }
  checks.unshift(
    ...(missing.length > 0
      ? missing
      : [
          {
            label: 'Permissions',
            outcome: 'ok' as const,
            detail:
              'The key may use customers, subscriptions, checkout sessions, the Customer Portal, and read payment intents and charges.',
          },
        ]),
  );
  for (const id of priceIds) {
    try {
      const price = await client.prices.retrieve(id);
      checks.push(priceCheck(price));
    } catch (error) {
      if (isAuthentication(error))
        return [{ label: 'Secret key', outcome: 'failed', detail: keyProblem(error) }];
      checks.push({
        label: `Price ${id}`,
        outcome: 'failed',
        detail: isMissing(error)
          ? OTHER_MODE.test(errorOf(error)?.message ?? '')
            ? `It is a price of Stripe’s ${mode === 'test' ? 'live' : 'test'} mode, but the key is a ${mode}-mode key: pick a price made in ${mode} mode.`
            : `Stripe has no such price in ${mode} mode. Copy the price ID (price_…) from the product's page in Stripe, in the same mode as the key.`
          : isPermission(error)
            ? 'The key may not read prices: give the restricted key “Prices: Read”.'
            : providerError(error).message,
      });
    }
  }
  return [keyAccepted, ...checks];
}
