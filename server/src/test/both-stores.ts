import { openStore } from '../store/open-store';
import { openEmbeddedStore } from '../store/sqlite/store';
import type { Store } from '../store/store';
import { type MongoStandIn, startMongoStandIn } from './mongo-stand-in';

type OpenStore = (dataDir: string) => Promise<Store>;

/**
 * The two stores a feature's tests run on, for `describe.each(stores)`: the embedded one, and
 * MongoDB through the official driver over the project's wire stand-in (a stand-in per store
 * opened, in database `database`). `closeStandIns` in an `afterAll` stops what was started.
 */
export function bothStores(database: string): {
  stores: Array<[string, OpenStore]>;
  closeStandIns(): Promise<void>;
} {
  const standIns: MongoStandIn[] = [];
  return {
    stores: [
      ['embedded store', openEmbeddedStore],
      [
        'MongoDB (wire stand-in)',
        async (dataDir) => {
          const standIn = await startMongoStandIn();
          standIns.push(standIn);
          return openStore({ dataDir, mongodbUri: standIn.uri(database) });
        },
      ],
    ],
    async closeStandIns() {
      for (const standIn of standIns.splice(0)) await standIn.close();
    },
  };
}
