import { demoUsers } from '../../scripts/demo/users';
import { hashPassword } from '../../server/src/features/users/passwords';
import { UsersRepository } from '../../server/src/features/users/users.repository';
import { openEmbeddedStore } from '../../server/src/store/sqlite/store';

/** Puts `count` demo members into the embedded store under `dataDir`, before the product starts. */
export async function seedUsers(dataDir: string, count: number): Promise<void> {
  const store = await openEmbeddedStore(dataDir);
  try {
    const repository = new UsersRepository(store);
    await repository.init();
    const hash = await hashPassword('demo-password');
    for (let done = 0; done < count; done += 5000)
      await repository.insertMany(demoUsers(done, Math.min(5000, count - done), hash));
  } finally {
    await store.close();
  }
}
