// Fills the store (the same one `npm start` uses: DATA_DIR or MONGODB_URI) with demo users and courses.
// Usage: npm run seed -- --users 100000 [--force]   |   npm run seed -- --courses   |   npm run seed -- --remove
import { parseArgs } from 'node:util';
import { SharedChanges } from '../server/src/features/shared-state/shared-changes';
import { hashPassword } from '../server/src/features/users/passwords';
import { UsersRepository } from '../server/src/features/users/users.repository';
import { PRIVATE_UMASK } from '../server/src/lib/private-files';
import { loadConfig } from '../server/src/settings/config';
import { openStore } from '../server/src/store/open-store';
import { addDemoCourses, removeDemoCourses } from './demo/courses';
import { demoUsers } from './demo/users';

export const DEMO_PASSWORD = 'demo-password';
const BATCH = 5000;

const { values } = parseArgs({
  options: {
    users: { type: 'string' },
    force: { type: 'boolean', default: false },
    remove: { type: 'boolean', default: false },
    courses: { type: 'boolean', default: false },
  },
});
// --courses alone adds the demo courses only; users are added when asked for (or when nothing else is).
const wanted = Number(values.users ?? (values.courses ? 0 : 1000));
const addUsers = wanted > 0;
if (!values.remove && addUsers && (!Number.isInteger(wanted) || wanted < 1 || wanted > 10_000_000)) {
  console.error('--users must be a whole number from 1 to 10000000');
  process.exit(2);
}

const config = loadConfig();
// The store files it creates are the owner's alone, as the server's are.
process.umask(PRIVATE_UMASK);
const store = await openStore(config);
const users = new UsersRepository(store);
await users.init();
const where = config.mongodbUri ? 'MongoDB' : config.dataDir;

/** Tells a running server that courses changed, so its course pages show the change at once. */
async function coursesChanged(): Promise<void> {
  const changes = new SharedChanges(store);
  await changes.init();
  await changes.bump('courses');
}

if (values.remove) {
  const courses = await removeDemoCourses(store);
  if (courses > 0) await coursesChanged();
  console.log(`Removed ${courses} demo course${courses === 1 ? '' : 's'} from ${where}.`);
  let removed = 0;
  for (;;) {
    const batch = await users.find({ demo: true }, { limit: BATCH });
    if (batch.length === 0) break;
    for (const user of batch) if (await users.delete(user._id)) removed += 1;
    process.stdout.write(`\r${removed} demo users removed`);
  }
  await store.close();
  console.log(`\nRemoved ${removed} demo users from ${where}; no other user was touched.`);
  process.exit(0);
}

if (values.courses) {
  const added = await addDemoCourses(store);
  if (added > 0) await coursesChanged();
  console.log(
    added > 0
      ? `Added ${added} published demo course${added === 1 ? '' : 's'} to ${where} (see /courses; \`npm run seed -- --remove\` takes them away).`
      : `The demo courses are in ${where} already.`,
  );
  if (!addUsers) {
    await store.close();
    process.exit(0);
  }
}

// Demo users share a published password: mixing them into a store with real people is refused
// unless asked for in so many words.
const others = await users.count({ demo: { $ne: true } });
if (others > 0 && !values.force) {
  await store.close();
  console.error(
    `${where} already holds ${others} user${others === 1 ? '' : 's'} who ${others === 1 ? 'is' : 'are'} not demo users. ` +
      'Demo users all share a published password, so they are not added next to real accounts. ' +
      'Run `npm run seed -- --force …` to add them anyway (`npm run seed -- --remove` takes them out again).',
  );
  process.exit(1);
}

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
console.log(`\nAdded ${wanted} demo users to ${where} in ${seconds} s.`);
console.log(`They all sign in with the password: ${DEMO_PASSWORD} (none is an administrator).`);
