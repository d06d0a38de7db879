import {
  type PaymentsField,
  priceIdsSchema,
  secretKeySchema,
  splitPriceIds,
  webhookSecretSchema,
} from '@common/schemas/payments';
import { z } from 'zod';

const optional = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

/** The environment variables, spread into config.ts's schema. Their messages never repeat a value. */
export const paymentsEnvFields = {
  STRIPE_SECRET_KEY: optional.pipe(secretKeySchema.optional()),
  STRIPE_WEBHOOK_SECRET: optional.pipe(webhookSecretSchema.optional()),
  STRIPE_PRICE_IDS: optional
    .transform((value) => (value === undefined ? undefined : splitPriceIds(value)))
    .pipe(priceIdsSchema.optional()),
  STRIPE_API_BASE: optional.pipe(
    z
      .url({
        protocol: /^https?$/,
        error: 'must be an http:// or https:// address, e.g. http://127.0.0.1:12111',
      })
      .optional(),
  ),
};

type PaymentsEnvInput = { [K in keyof typeof paymentsEnvFields]?: z.infer<(typeof paymentsEnvFields)[K]> };

/** Where the Stripe client sends its calls: Stripe itself unless STRIPE_API_BASE names a stand-in. */
export interface ApiBase {
  host: string;
  port: number;
  protocol: 'http' | 'https';
  /** As given, for the console to show. */
  url: string;
}

/** The payment settings fixed by the environment; these win over the console's. */
export interface PaymentsEnv {
  secretKey?: string;
  webhookSecret?: string;
  priceIds?: string[];
  apiBase?: ApiBase;
  /** Fields given by a variable, with its name: read-only in the console. */
  fixedByEnv: Partial<Record<PaymentsField, string>>;
}

export const ENV_OF_PAYMENTS_FIELD = {
  secretKey: 'STRIPE_SECRET_KEY',
  webhookSecret: 'STRIPE_WEBHOOK_SECRET',
  priceIds: 'STRIPE_PRICE_IDS',
} as const satisfies Record<PaymentsField, string>;

export function paymentsEnv(e: PaymentsEnvInput): PaymentsEnv {
  const fixedByEnv: Partial<Record<PaymentsField, string>> = {};
  if (e.STRIPE_SECRET_KEY) fixedByEnv.secretKey = ENV_OF_PAYMENTS_FIELD.secretKey;
  if (e.STRIPE_WEBHOOK_SECRET) fixedByEnv.webhookSecret = ENV_OF_PAYMENTS_FIELD.webhookSecret;
  if (e.STRIPE_PRICE_IDS?.length) fixedByEnv.priceIds = ENV_OF_PAYMENTS_FIELD.priceIds;
  return {
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    priceIds: e.STRIPE_PRICE_IDS?.length ? e.STRIPE_PRICE_IDS : undefined,
    apiBase: e.STRIPE_API_BASE ? apiBaseOf(e.STRIPE_API_BASE) : undefined,
    fixedByEnv,
  };
}

/** `http://127.0.0.1:12111` as the `stripe` package's host, port and protocol options. */
export function apiBaseOf(url: string): ApiBase {
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443,
    protocol,
    url: `${parsed.protocol}//${parsed.host}`,
  };
}
