import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openMongoStore } from '../../store/mongo/store';
import type { Store, StoredDoc } from '../../store/store';
import { ferretDbForFile } from '../../test/ferretdb';
import { StoreLeases } from './store-lease';

/**
 * A lease held in the store holds across machines: two stores opened on one database (two
 * processes, each with its own connection) take one lease for work that reads, waits and writes,
 * and no two holders ever overlap. On FerretDB, whose own updates are not atomic (the adapter
 * locks each document it updates there, see store/mongo/store.ts).
 */
interface Tally extends StoredDoc {
  n: number;
}

const ferret = ferretDbForFile();
const opened: Store[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

describe.skipIf(!ferret)('a lease shared by two processes on one database (FerretDB)', () => {
  it('lets 16 holders from both processes work one at a time, losing no write', async () => {
    const uri = ferret!.freshUri('leases');
    const stores = [await openMongoStore(uri), await openMongoStore(uri)];
    opened.push(...stores);
    const [one, two] = stores as [Store, Store];
    const { _id } = await one.collection<Tally>('tally').insertOne({ n: 0 });
    const processes = [one, two].map((store) => ({ store, leases: new StoreLeases(store) }));
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 16 }, (_, i) => {
        const { store, leases } = processes[i % 2]!;
        return leases.run(
          'tally',
          'busy',
          async () => {
            inside += 1;
            most = Math.max(most, inside);
            const tally = store.collection<Tally>('tally');
            const { n } = (await tally.findById(_id))!;
            await sleep(1);
            await tally.updateById(_id, { n: n + 1 });
            inside -= 1;
          },
          // The last holder waits for the 15 others: on a busy machine that is longer than the
          // 10 s a visitor's request waits, and that limit is not what this test is about.
          { waitMs: 60_000 },
        );
      }),
    );
    expect(most).toBe(1);
    expect((await two.collection<Tally>('tally').findById(_id))?.n).toBe(16);
  }, 90_000);
});
