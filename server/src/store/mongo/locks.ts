import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from 'mongodb';
import { newId } from '../new-id';

/**
 * The collection holding the locks. The adapter's own, like the counters: left out of
 * `collectionNames()`, so a copy of the site's data never takes it.
 */
export const LOCKS_COLLECTION = 'store_locks';

interface LockDoc {
  _id: string;
  /** Who holds it: a fresh id per holding. */
  holder: string;
  /** When a holder that died lets go by itself. */
  expiresAt: Date;
}

/** Far beyond the few round trips a holding lasts; how long a dead holder's keys stay taken. */
const HOLD_MS = 5000;
/** How long to wait for others' holdings before giving up. */
const WAIT_MS = 10_000;

export class LockTimeoutError extends Error {
  constructor(name: string) {
    super(`The store lock ${name} stayed taken for ${WAIT_MS / 1000} s; try again.`);
    this.name = 'LockTimeoutError';
  }
}

export type Unlock = () => Promise<void>;

/**
 * Locks held as documents of `store_locks`, for work that reads documents and then writes them,
 * where no other process may write them in between: a limit decision over several counters
 * (MongoDB updates one document atomically, not several, and a standalone server has no
 * transactions), and every update on a server whose own updates are not atomic (FerretDB).
 *
 * Taking a lock is one insert of a document whose `_id` is the lock's name: the unique `_id`
 * lets one insert win on every server, FerretDB's included (its inserts are atomic; its updates
 * read, then write the whole document). Several names are taken in sorted order, so two holders
 * never wait on each other. A holder that dies leaves its locks to lapse after HOLD_MS; the
 * first to find a lapsed lock deletes it (by its holder, so a lock taken again is kept) and tries
 * again.
 */
export function documentLocks(db: Db) {
  const c = db.collection<LockDoc>(LOCKS_COLLECTION);

  async function take(name: string, holder: string, giveUpAt: number): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await c.insertOne({ _id: name, holder, expiresAt: new Date(Date.now() + HOLD_MS) });
        return;
      } catch (error) {
        // 11000: duplicate key (checked by code, so that the driver is not loaded with this module).
        if ((error as { code?: unknown }).code !== 11000) throw error;
      }
      const current = await c.findOne({ _id: name });
      if (current && current.expiresAt.getTime() <= Date.now()) {
        await c.deleteOne({ _id: name, holder: current.holder });
        continue;
      }
      if (Date.now() >= giveUpAt) throw new LockTimeoutError(name);
      // A holding lasts a few round trips: try again soon, a little later each time, spread out.
      await sleep(1 + Math.random() * Math.min(20, 2 ** attempt));
    }
  }

  async function release(names: string[], holder: string): Promise<void> {
    if (names.length) await c.deleteMany({ _id: { $in: names }, holder });
  }

  /** Takes every lock named (waiting for other holders), and answers the function that lets go. */
  async function lock(names: string[]): Promise<Unlock> {
    const holder = newId();
    const giveUpAt = Date.now() + WAIT_MS;
    const held: string[] = [];
    try {
      for (const name of [...new Set(names)].sort()) {
        await take(name, holder, giveUpAt);
        held.push(name);
      }
    } catch (error) {
      await release(held, holder).catch(() => undefined);
      throw error;
    }
    return () => release(held, holder);
  }

  return {
    lock,
    /** Runs `work` holding every lock named, and lets go after it, whatever it answers. */
    async holding<R>(names: string[], work: () => Promise<R>): Promise<R> {
      const unlock = await lock(names);
      try {
        return await work();
      } finally {
        await unlock().catch(() => undefined);
      }
    },
  };
}

export type DocumentLocks = ReturnType<typeof documentLocks>;
