import { type MongoStandIn, startMongoStandIn } from '../../test/mongo-stand-in';
import { describeCountersContract } from '../counters.contract';
import { openMongoStore } from './store';

// The counters' contract over the wire to the MongoDB stand-in (the whole contract, counters
// included, runs on FerretDB and, with MONGODB_URI, on MongoDB itself: store.mongodb.test.ts).
let standIn: MongoStandIn;
describeCountersContract(
  'mongodb stand-in',
  async () => {
    standIn = await startMongoStandIn();
    return openMongoStore(standIn.uri('counters'));
  },
  () => standIn.close(),
);
