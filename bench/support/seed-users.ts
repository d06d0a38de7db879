import { demoUsers } from '../../scripts/demo/users';
import { hashPassword } from '../../server/src/features/users/passwords';
import { UsersRepository } from '../../server/src/features/users/users.repository';
import { newId } from '../../server/src/store/new-id';
import { openEmbeddedStore } from '../../server/src/store/sqlite/store';

/** Members per insert: one transaction each. */
const BATCH = 20_000;

/**
 * Puts `count` demo members into the embedded store under `dataDir`, before the product starts,
 * all with one argon2 hash. Into a new store the rows go first and the indexes (sort orders,
 * trigram search, kept counts) are built once after, in bulk: several times faster at a million
 * than keeping every index up to date row by row. `seen` is told each batch's ids (a bench that
 * gives some members more data picks them there).
 */
export async function seedUsers(
  dataDir: string,
  count: number,
  seen: (ids: string[]) => void = () => undefined,
): Promise<void> {
  const store = await openEmbeddedStore(dataDir);
  try {
    const repository = new UsersRepository(store);
    const hash = await hashPassword('demo-password');
    for (let done = 0; done < count; done += BATCH) {
      const batch = demoUsers(done, Math.min(BATCH, count - done), hash).map((user) => ({
        ...user,
        _id: newId(),
      }));
      seen(batch.map((user) => user._id));
      await repository.insertMany(batch);
    }
    await repository.init();
  } finally {
    await store.close();
  }
}
