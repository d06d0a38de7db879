import { describe, it } from 'vitest';
import { ferretDbForFile } from '../../test/ferretdb';
import { type MongoStandIn, startMongoStandIn } from '../../test/mongo-stand-in';
import { describeConcurrentWritesContract } from '../concurrent-writes.contract';
import { describeStoreContract } from '../store.contract';
import { openMongoStore } from './store';

// The contract over the wire to the project's MongoDB stand-in: the adapter's MongoDB code paths
// (atomic updates by the server itself) as the driver sends and reads them.
let standIn: MongoStandIn;
describeStoreContract(
  'mongodb stand-in',
  async () => {
    standIn = await startMongoStandIn();
    return openMongoStore(standIn.uri('contract'));
  },
  () => standIn.close(),
);

// On FerretDB, a real and independent server (test/ferretdb.ts): every contract, each in a
// database of its own. Skipped with a message where it is not built; CI fails instead.
const ferret = ferretDbForFile();
if (ferret) {
  describeStoreContract('FerretDB', () => openMongoStore(ferret.freshUri('contract')));
  describeConcurrentWritesContract('FerretDB', () => openMongoStore(ferret.freshUri('writes')));
}

/**
 * And on MongoDB itself wherever MONGODB_URI is set (no MongoDB server can be installed on the
 * project's machines), e.g. MONGODB_URI=mongodb://127.0.0.1:27017/contract-test npm run test:mongodb
 */
const uri = process.env.MONGODB_URI;
if (uri) {
  describeStoreContract('mongodb', () => openMongoStore(uri));
  describeConcurrentWritesContract('mongodb', () => openMongoStore(uri));
} else {
  describe('Store contract: mongodb', () => {
    it.skip('runs on MongoDB itself only when MONGODB_URI is set', () => {});
  });
}
