import { openStore } from '../store/open-store';
import { openEmbeddedStore } from '../store/sqlite/store';
import type { Store } from '../store/store';
import { ferretDbForFile } from './ferretdb';

type OpenStore = (dataDir: string) => Promise<Store>;

/**
 * The two stores a feature's tests run on, for `describe.each(stores)`: the embedded one, and
 * MongoDB through the official driver on FerretDB, a real server (test/ferretdb.ts), started for
 * the calling test file (call this at its top level), a fresh database `database_<n>` per store
 * opened. Without FerretDB the MongoDB leg is left out with a message (CI fails instead).
 */
export function bothStores(database: string): {
  stores: Array<[string, OpenStore]>;
  /** Nothing left to stop: the stores opened close with their tests, FerretDB after the file. */
  closeStandIns(): Promise<void>;
} {
  const ferret = ferretDbForFile();
  const stores: Array<[string, OpenStore]> = [['embedded store', openEmbeddedStore]];
  if (ferret) {
    stores.push([
      'MongoDB (FerretDB)',
      (dataDir) => openStore({ dataDir, mongodbUri: ferret.freshUri(database) }),
    ]);
  }
  return { stores, closeStandIns: async () => {} };
}
