import type { Db } from 'mongodb';
import { type CounterAdded, type CounterStore, MAX_COUNTERS, SWEEP_EVERY_MS } from '../counters';

/**
 * The collection holding the counters. It is the adapter's own, like the embedded store's
 * counters file: left out of `collectionNames()`, so a copy of the site's data never takes it.
 */
export const COUNTERS_COLLECTION = 'rate_counters';

interface CounterDoc {
  _id: string;
  count: number;
  resetAt: Date;
  /** The count from which the window's limit is enforced (Infinity: none). */
  limit: number;
}

/**
 * A window below its limit: the only kind the sweep may drop. A document written before windows
 * kept their limit has none, and compares as below every count: kept until it ends.
 */
const BELOW_LIMIT = { $expr: { $lt: ['$count', '$limit'] } };

/** Attempts before giving up when other processes keep changing the same key at the same moment. */
const ATTEMPTS = 20;

/**
 * Rate-limit counters in MongoDB, shared by every machine on the database. The key is the
 * document's _id, so two processes can never create two windows for one key. A running window
 * is counted by one conditional `$inc` (atomic on the server); an ended one is restarted by a
 * compare-and-set on its end time. A TTL index on `resetAt` lets MongoDB delete ended windows by
 * itself; the sweep also caps the collection's size, never dropping a window at its limit.
 */
export function mongoCounters(db: Db): CounterStore & { close(): void } {
  const c = db.collection<CounterDoc>(COUNTERS_COLLECTION);
  let indexed: Promise<unknown> | undefined;
  const ready = () => {
    indexed ??= c.createIndex({ resetAt: 1 }, { expireAfterSeconds: 0 }).catch((error: unknown) => {
      indexed = undefined;
      throw error;
    });
    return indexed;
  };

  async function add(
    key: string,
    amount: number,
    max: number,
    windowMs: number,
    limit = max,
  ): Promise<CounterAdded> {
    await ready();
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const now = Date.now();
      // A running window with room for `amount` (and, taking back, something to take back).
      const count: Record<string, number> = { $lte: max - amount };
      if (amount < 0) count.$gte = -amount;
      const counted = await c.findOneAndUpdate(
        { _id: key, resetAt: { $gt: new Date(now) }, count },
        { $inc: { count: amount } },
        { returnDocument: 'after' },
      );
      if (counted) return { count: counted.count, resetAt: counted.resetAt.getTime(), added: true };
      const doc = await c.findOne({ _id: key });
      if (doc && doc.resetAt.getTime() > now) {
        if (amount >= 0 || doc.count === 0)
          return { count: doc.count, resetAt: doc.resetAt.getTime(), added: false };
        // Taking back more than is left: down to 0, unless it changed meanwhile.
        const emptied = await c.findOneAndUpdate(
          { _id: key, resetAt: doc.resetAt, count: doc.count },
          { $set: { count: 0 } },
          { returnDocument: 'after' },
        );
        if (emptied) return { count: 0, resetAt: doc.resetAt.getTime(), added: true };
        continue;
      }
      if (amount <= 0) return { count: 0, resetAt: now, added: true };
      const resetAt = new Date(now + windowMs);
      if (amount > max) return { count: 0, resetAt: resetAt.getTime(), added: false };
      if (doc) {
        const restarted = await c.findOneAndUpdate(
          { _id: key, resetAt: doc.resetAt },
          { $set: { count: amount, resetAt, limit } },
          { returnDocument: 'after' },
        );
        if (restarted) return { count: amount, resetAt: resetAt.getTime(), added: true };
        continue;
      }
      try {
        await c.insertOne({ _id: key, count: amount, resetAt, limit });
        return { count: amount, resetAt: resetAt.getTime(), added: true };
      } catch (error) {
        // Another process started the window first: count in it.
        // 11000: duplicate key (checked by code, so that the driver is not loaded with this module).
        if ((error as { code?: unknown }).code !== 11000) throw error;
      }
    }
    throw new Error(`The rate-limit counter ${key} kept changing under this process; try again.`);
  }

  async function sweep(maxKeys = MAX_COUNTERS): Promise<void> {
    await c.deleteMany({ resetAt: { $lte: new Date() } });
    const excess = (await c.estimatedDocumentCount()) - maxKeys;
    if (excess <= 0) return;
    const soonest = await c
      .find(BELOW_LIMIT, { projection: { _id: 1 } })
      .sort({ resetAt: 1 })
      .limit(excess)
      .toArray();
    // Checked again as each is deleted: one may have reached its limit since it was read.
    await c.deleteMany({ _id: { $in: soonest.map((doc) => doc._id) }, ...BELOW_LIMIT });
  }

  const timer = setInterval(() => void sweep().catch(() => undefined), SWEEP_EVERY_MS);
  timer.unref();

  return {
    add,
    async get(key) {
      const doc = await c.findOne({ _id: key });
      return doc && doc.resetAt.getTime() > Date.now()
        ? { count: doc.count, resetAt: doc.resetAt.getTime() }
        : null;
    },
    async delete(key) {
      await c.deleteOne({ _id: key });
    },
    sweep,
    close() {
      clearInterval(timer);
    },
  };
}
