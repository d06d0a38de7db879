import { redactUri } from '../lib/redact';
import type { Config } from '../settings/config';
import { readStoreSettings, savedMongoUri, storeSettingsPath } from '../settings/store-settings';
import { openMongoStore } from './mongo/store';
import { openEmbeddedStore } from './sqlite/store';
import type { Store } from './store';

export type StoreChoice =
  | { kind: 'embedded' }
  | { kind: 'mongodb'; uri: string; source: 'environment' | 'saved settings' };

/**
 * Which store a server start opens: MONGODB_URI when set (it always wins), else MongoDB when
 * the saved settings were switched on by a successful Save or `npm run db:copy`, else the
 * embedded store under DATA_DIR.
 */
export async function chooseStore(config: Pick<Config, 'mongodbUri' | 'dataDir'>): Promise<StoreChoice> {
  if (config.mongodbUri) return { kind: 'mongodb', uri: config.mongodbUri, source: 'environment' };
  const saved = await readStoreSettings(config.dataDir);
  if (saved.use === 'mongodb')
    return { kind: 'mongodb', uri: savedMongoUri(saved), source: 'saved settings' };
  return { kind: 'embedded' };
}

/** Opens the chosen store once, at start (`lockHolder`: see openEmbeddedStore). */
export async function openStore(
  config: Pick<Config, 'mongodbUri' | 'dataDir'>,
  options: { lockHolder?: number } = {},
): Promise<Store> {
  const choice = await chooseStore(config);
  if (choice.kind === 'embedded') return openEmbeddedStore(config.dataDir, undefined, options);
  try {
    return await openMongoStore(choice.uri);
  } catch (error) {
    // Never fall back to the embedded store here: writes would go to data the site moved away from.
    const where =
      choice.source === 'environment'
        ? 'MONGODB_URI'
        : `the saved settings (${storeSettingsPath(config.dataDir)}; set "use" to "embedded" there to go back)`;
    throw new Error(
      `Could not open MongoDB at ${redactUri(choice.uri)}, chosen by ${where}: ${(error as Error).message}`,
    );
  }
}
