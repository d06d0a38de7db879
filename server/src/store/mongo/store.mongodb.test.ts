import { describe, it } from 'vitest';
import { type MongoStandIn, startMongoStandIn } from '../../test/mongo-stand-in';
import { describeConcurrentWritesContract } from '../concurrent-writes.contract';
import { describeStoreContract } from '../store.contract';
import { openMongoStore } from './store';

// The contract over the wire to the project's MongoDB stand-in, so that it runs everywhere, CI
// included: the adapter's queries, indexes and errors as the driver sends and reads them.
let standIn: MongoStandIn;
describeStoreContract(
  'mongodb stand-in',
  async () => {
    standIn = await startMongoStandIn();
    return openMongoStore(standIn.uri('contract'));
  },
  () => standIn.close(),
);

/**
 * And on a real MongoDB wherever MONGODB_URI is set (no server can be installed on the project's
 * machines), e.g. MONGODB_URI=mongodb://127.0.0.1:27017/contract-test npm run test:mongodb
 */
const uri = process.env.MONGODB_URI;
if (uri) {
  describeStoreContract('mongodb', () => openMongoStore(uri));
  describeConcurrentWritesContract('mongodb', () => openMongoStore(uri));
} else {
  describe('Store contract: mongodb', () => {
    it.skip('runs on a real server only when MONGODB_URI is set', () => {});
  });
}
