import { type MongoStandIn, startMongoStandIn } from '../../test/mongo-stand-in';
import { describeConcurrentWritesContract } from '../concurrent-writes.contract';
import { openMongoStore } from './store';

// Writes asked for at once, over the wire to the MongoDB stand-in so that it runs everywhere (on a
// real MongoDB too when MONGODB_URI is set: store.mongodb.test.ts).
let standIn: MongoStandIn;
describeConcurrentWritesContract(
  'mongodb stand-in',
  async () => {
    standIn = await startMongoStandIn();
    return openMongoStore(standIn.uri('writes'));
  },
  () => standIn.close(),
);
