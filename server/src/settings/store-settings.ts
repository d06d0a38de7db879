import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DATABASE_DEFAULTS } from '@common/schemas/database';
import { writeFileDurably } from '../lib/durable-file';

/** The console's MongoDB connection settings, as kept on disk (the password included). */
export interface MongoSettings {
  host: string;
  port: number;
  database: string;
  username: string;
  password: string;
  authEnabled: boolean;
  ssl: boolean;
  poolSize: number;
}

/**
 * DATA_DIR/database.json, readable by the owner only. `use` is what the next start opens when
 * MONGODB_URI is not set; it becomes 'mongodb' only after a Save that connected (and copied the
 * data when the target was empty), or after `npm run db:copy`.
 */
export interface StoreSettings {
  use: 'embedded' | 'mongodb';
  mongodb: MongoSettings;
  /** Set by `npm run db:copy -- --to <uri>`: used instead of the fields above, which cannot say everything a URI can. */
  uri?: string;
  /** When `use` last changed, and why. */
  switchedAt?: string;
  switchedBy?: string;
}

export const STORE_SETTINGS_FILE = 'database.json';

export const DEFAULT_STORE_SETTINGS: StoreSettings = {
  use: 'embedded',
  mongodb: { ...DATABASE_DEFAULTS, password: '' },
};

export const storeSettingsPath = (dataDir: string) => path.join(dataDir, STORE_SETTINGS_FILE);

/** The saved settings, or the defaults when none were saved. A damaged file is an error, not a silent default. */
export async function readStoreSettings(dataDir: string): Promise<StoreSettings> {
  let text: string;
  try {
    text = await readFile(storeSettingsPath(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(DEFAULT_STORE_SETTINGS);
    throw error;
  }
  const saved = JSON.parse(text) as Partial<StoreSettings>;
  return {
    ...saved,
    use: saved.use === 'mongodb' ? 'mongodb' : 'embedded',
    mongodb: { ...DEFAULT_STORE_SETTINGS.mongodb, ...saved.mongodb },
  };
}

/**
 * Whole or not at all, and on the disk before it resolves: the next start opens the store this
 * file names, so a power cut must leave the old choice or the new one, never half a file.
 */
export async function writeStoreSettings(dataDir: string, settings: StoreSettings): Promise<void> {
  await writeFileDurably(storeSettingsPath(dataDir), `${JSON.stringify(settings, null, 2)}\n`);
}

/** The connection string for the console's fields. Users are looked up in `admin`, where MongoDB keeps them. */
export function mongoUri(settings: MongoSettings): string {
  const auth =
    settings.authEnabled && settings.username
      ? `${encodeURIComponent(settings.username)}:${encodeURIComponent(settings.password)}@`
      : '';
  const params = new URLSearchParams({ maxPoolSize: String(settings.poolSize) });
  if (settings.ssl) params.set('tls', 'true');
  if (auth) params.set('authSource', 'admin');
  return `mongodb://${auth}${settings.host}:${settings.port}/${settings.database}?${params}`;
}

/** The URI the saved settings point to, when they say MongoDB. */
export function savedMongoUri(settings: StoreSettings): string {
  return settings.uri ?? mongoUri(settings.mongodb);
}
