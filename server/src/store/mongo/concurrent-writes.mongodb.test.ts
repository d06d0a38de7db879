import { type MongoStandIn, startMongoStandIn } from '../../test/mongo-stand-in';
import { describeConcurrentWritesContract } from '../concurrent-writes.contract';
import { openMongoStore } from './store';

// Writes asked for at once, over the wire to the MongoDB stand-in: the adapter's MongoDB path,
// where the server makes each update atomic (on FerretDB and, with MONGODB_URI, on MongoDB
// itself: store.mongodb.test.ts).
let standIn: MongoStandIn;
describeConcurrentWritesContract(
  'mongodb stand-in',
  async () => {
    standIn = await startMongoStandIn();
    return openMongoStore(standIn.uri('writes'));
  },
  () => standIn.close(),
);
