import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  coursePricesSchema,
  priceIdsSchema,
  secretKeySchema,
  trialDaysSchema,
  webhookSecretSchema,
} from '@common/schemas/payments';
import { z } from 'zod';
import { writeFileDurably } from '../lib/durable-file';

/**
 * The console's payment settings on disk: DATA_DIR/payments.json, readable by the app's user only
 * (it holds the Stripe secret key and the webhook signing secret). The only code touching it.
 */
export const PAYMENTS_FILE = 'payments.json';

export interface SavedPayments {
  secretKey?: string;
  webhookSecret?: string;
  priceIds?: string[];
  promotionCodes?: boolean;
  trialDays?: number;
  trialWithoutCard?: boolean;
  coursePrices?: Record<string, string>;
}

export interface ReadPayments {
  values: SavedPayments;
  /** Fields that could not be read, by name only: the file holds secrets, so no value is quoted. */
  problems: string[];
}

const FIELD_SCHEMAS = {
  secretKey: secretKeySchema,
  webhookSecret: webhookSecretSchema,
  priceIds: priceIdsSchema,
  promotionCodes: z.boolean(),
  trialDays: trialDaysSchema,
  trialWithoutCard: z.boolean(),
  coursePrices: coursePricesSchema,
} as const;

export const paymentsFilePath = (dataDir: string) => path.join(dataDir, PAYMENTS_FILE);

/**
 * Read afresh on every use: another server process of this machine may have saved since, and a
 * copy kept here would be written back over its save. A field that does not read is left out.
 */
export async function readSavedPayments(dataDir: string): Promise<ReadPayments> {
  let raw: string;
  try {
    raw = await readFile(paymentsFilePath(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { values: {}, problems: [] };
    return {
      values: {},
      problems: [`${PAYMENTS_FILE} cannot be read (${(error as NodeJS.ErrnoException).code})`],
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { values: {}, problems: [`${PAYMENTS_FILE} is not valid JSON`] };
  }
  if (!data || typeof data !== 'object')
    return { values: {}, problems: [`${PAYMENTS_FILE} is not a JSON object`] };
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [field, schema] of Object.entries(FIELD_SCHEMAS)) {
    const given = (data as Record<string, unknown>)[field];
    if (given === undefined) continue;
    const parsed = schema.safeParse(given);
    if (parsed.success) values[field] = parsed.data;
    else problems.push(`${PAYMENTS_FILE}: ${field} is not valid and is ignored`);
  }
  return { values: values as SavedPayments, problems };
}

/** The whole file, written whole or not at all, mode 0600 (lib/durable-file.ts). */
export async function writeSavedPayments(dataDir: string, values: SavedPayments): Promise<void> {
  await writeFileDurably(paymentsFilePath(dataDir), `${JSON.stringify(values, null, 2)}\n`);
}
