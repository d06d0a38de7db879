import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bothStores } from '../../test/both-stores';
import { FigureDaysRepository } from './figure-days.repository';

/**
 * The day's counters are added to by every worker and instance at once: on both stores, two
 * processes' repositories adding together lose nothing.
 */
const { stores, closeStandIns } = bothStores('figures');
afterAll(() => closeStandIns());

describe.each(stores)('the daily roll-ups on the %s', (_name, open) => {
  it('keeps every addition made at once from two processes', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'figures-'));
    const store = await open(dataDir);
    try {
      const first = new FigureDaysRepository(store);
      const second = new FigureDaysRepository(store);
      await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          (index % 2 ? first : second).add('2026-03-01', { signups: 1, [`signups@src${index % 3}`]: 1 }),
        ),
      );
      const [day] = await first.between('2026-03-01', '2026-03-01');
      expect(day?.counts).toEqual({
        signups: 30,
        'signups@src0': 10,
        'signups@src1': 10,
        'signups@src2': 10,
      });
      expect(await first.claimBackfill()).toBe(true);
      expect(await second.claimBackfill()).toBe(false);
    } finally {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
