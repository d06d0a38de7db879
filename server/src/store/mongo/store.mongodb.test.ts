import { describe, it } from 'vitest';
import { describeConcurrentWritesContract } from '../concurrent-writes.contract';
import { describeStoreContract } from '../store.contract';
import { openMongoStore } from './store';

/**
 * The same contract on MongoDB. No MongoDB server can be installed on the project's machines,
 * so this runs wherever MONGODB_URI is set, e.g.
 * MONGODB_URI=mongodb://127.0.0.1:27017/contract-test npm run test:mongodb
 */
const uri = process.env.MONGODB_URI;
if (uri) {
  describeStoreContract('mongodb', () => openMongoStore(uri));
  describeConcurrentWritesContract('mongodb', () => openMongoStore(uri));
} else {
  describe('Store contract: mongodb', () => {
    it.skip('runs only when MONGODB_URI is set', () => {});
  });
}
