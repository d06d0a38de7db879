import type { ApiBase, PaymentsEnv } from './payments-env';
import type { SavedPayments } from './payments-file';

/** The payment settings in force: each field from the environment if it sets it, else from the console's file. */
export interface EffectivePayments {
  secretKey?: string;
  webhookSecret?: string;
  priceIds: string[];
  apiBase?: ApiBase;
  /** The ways to sell, set in the console only. */
  promotionCodes: boolean;
  trialDays: number | null;
  trialWithoutCard: boolean;
  coursePrices: Record<string, string>;
}

/**
 * The payment settings' layers, like config.ts's: environment (`payments-env.ts`) > saved by the
 * console (`payments-file.ts`) > default (no price). Merged on every use rather than once at
 * start as config.ts does, because the file is read afresh each time (another server process of
 * the machine may have saved since).
 */
export function paymentsInForce(env: PaymentsEnv, saved: SavedPayments): EffectivePayments {
  return {
    secretKey: env.secretKey ?? saved.secretKey,
    webhookSecret: env.webhookSecret ?? saved.webhookSecret,
    priceIds: env.priceIds ?? saved.priceIds ?? [],
    apiBase: env.apiBase,
    promotionCodes: saved.promotionCodes ?? false,
    trialDays: saved.trialDays ?? null,
    trialWithoutCard: saved.trialWithoutCard ?? false,
    coursePrices: saved.coursePrices ?? {},
  };
}
