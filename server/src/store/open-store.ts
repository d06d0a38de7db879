import type { Config } from '../config';
import { openEmbeddedStore } from './embedded-store';
import { openMongoStore } from './mongo-store';
import type { Store } from './store';

/** Chooses the adapter once, at start: MongoDB when a URI is configured, else the embedded store. */
export function openStore(config: Pick<Config, 'mongodbUri' | 'dataDir'>): Promise<Store> {
  return config.mongodbUri ? openMongoStore(config.mongodbUri) : openEmbeddedStore(config.dataDir);
}
