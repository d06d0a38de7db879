import { type MongoStandIn, startMongoStandIn } from '../../test/mongo-stand-in';
import { describeCountersContract } from '../counters.contract';
import { openMongoStore } from './store';

// The counters' contract also over the wire to the MongoDB stand-in, so that it runs everywhere
// (the whole contract runs on a real MongoDB when MONGODB_URI is set: store.mongodb.test.ts).
let standIn: MongoStandIn;
describeCountersContract(
  'mongodb stand-in',
  async () => {
    standIn = await startMongoStandIn();
    return openMongoStore(standIn.uri('counters'));
  },
  () => standIn.close(),
);
