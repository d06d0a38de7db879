import { openMongoStore } from '../../store/mongo/store';
import { ferretDbForFile } from '../../test/ferretdb';
import { type MongoStandIn, startMongoStandIn } from '../../test/mongo-stand-in';
import { describeSignInLimitsContract } from './sign-in-limits.contract';

let standIn: MongoStandIn;
describeSignInLimitsContract(
  'mongodb stand-in',
  async () => {
    standIn = await startMongoStandIn();
    return openMongoStore(standIn.uri('sign-in-limits'));
  },
  () => standIn.close(),
);

// On FerretDB, a real and independent server: skipped with a message where it is not built.
const ferret = ferretDbForFile();
if (ferret) describeSignInLimitsContract('FerretDB', () => openMongoStore(ferret.freshUri('sign-in-limits')));

const uri = process.env.MONGODB_URI;
if (uri) describeSignInLimitsContract('mongodb', () => openMongoStore(uri));
