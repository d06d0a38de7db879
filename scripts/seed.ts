// Fills the store (the same one `npm start` uses: DATA_DIR or MONGODB_URI) with demo users.
// Usage: npm run seed -- --users 100000
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/src/config';
import { hashPassword } from '../server/src/features/auth/passwords';
import { demoUsers } from '../server/src/features/users/demo-users';
import { UsersRepository } from '../server/src/features/users/users.repository';
import { openStore } from '../server/src/store/open-store';

export const DEMO_PASSWORD = 'demo-password';
const BATCH = 5000;

const { values } = parseArgs({ options: { users: { type: 'string', default: '1000' } } });
const wanted = Number(values.users);
if (!Number.isInteger(wanted) || wanted < 1 || wanted > 10_000_000) {
  console.error('--users must be a whole number from 1 to 10000000');
  process.exit(2);
}

const config = loadConfig();
const store = await openStore(config);
const users = new UsersRepository(store);
await users.init();

const started = performance.now();
// One argon2 hash shared by every demo user: hashing each one would take ~30 ms apiece.
const passwordHash = await hashPassword(DEMO_PASSWORD);
const first = await users.count();
for (let done = 0; done < wanted; done += BATCH) {
  const size = Math.min(BATCH, wanted - done);
  await users.insertMany(demoUsers(first + done, size, passwordHash));
  process.stdout.write(`\r${done + size} / ${wanted} users`);
}
await store.close();
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `\nAdded ${wanted} demo users to ${config.mongodbUri ? 'MongoDB' : config.dataDir} in ${seconds} s.`,
);
console.log(`They all sign in with the password: ${DEMO_PASSWORD}`);
