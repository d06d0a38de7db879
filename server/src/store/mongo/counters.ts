import type { Db } from 'mongodb';
import {
  addByDecision,
  type CounterStep,
  type CounterStore,
  decideSteps,
  MAX_COUNTERS,
  type StoredWindow,
  SWEEP_EVERY_MS,
} from '../counters';
import type { DocumentLocks } from './locks';

/**
 * The collection holding the counters. It is the adapter's own, like the embedded store's
 * counters file: left out of `collectionNames()`, so a copy of the site's data never takes it.
 */
export const COUNTERS_COLLECTION = 'rate_counters';

interface CounterDoc {
  _id: string;
  count: number;
  resetAt: Date;
  /**
   * The count from which the window's limit is enforced; null for none (FerretDB stores no
   * Infinity; windows written before may hold it). Absent in windows written before windows
   * kept their limit: those are kept until they end.
   */
  limit?: number | null;
  /**
   * How far the window is below its limit (limit − count; NO_LIMIT_ROOM for none), kept with
   * every write: the sweep drops only windows with room, a filter every server answers (FerretDB
   * has no `$expr` to compare two fields).
   */
  room?: number;
}

const NO_LIMIT_ROOM = Number.MAX_SAFE_INTEGER;
/** A window below its limit: the only kind the sweep may drop. Windows without `room` are kept until they end. */
const BELOW_LIMIT = { room: { $gt: 0 } };
/** Error codes of a server that cannot make a TTL index: NotImplemented (FerretDB), InvalidIndexSpecificationOption, CannotCreateIndex. */
const NO_TTL_INDEX = new Set([238, 197, 67]);
/** Deletions under their keys' locks at once (the sweep on a server without atomic deletes). */
const PARALLEL_DELETES = 8;

const lockName = (key: string) => `rate:${key}`;

function limitOf(doc: CounterDoc): number {
  if (doc.limit === undefined) return 0;
  return doc.limit === null ? Number.POSITIVE_INFINITY : doc.limit;
}

function stored(window: StoredWindow): Omit<CounterDoc, '_id'> {
  const limited = Number.isFinite(window.limit);
  return {
    count: window.count,
    resetAt: new Date(window.resetAt),
    limit: limited ? window.limit : null,
    room: limited ? window.limit - window.count : NO_LIMIT_ROOM,
  };
}

/**
 * Rate-limit counters in MongoDB, shared by every machine on the database, one document per key
 * (the key is its `_id`). A decision holds its keys' locks (locks.ts) while it reads their windows,
 * runs `decideSteps` on them and writes what changed: MongoDB updates one document atomically,
 * not the several a limit decision reads, a standalone server has no transactions, and FerretDB
 * makes no update atomic; a lock is one insert, atomic on all of them. Forgetting a key holds its
 * lock too, so a decision in flight never writes back a window that was forgotten meanwhile.
 *
 * Ended windows go by a TTL index on `resetAt` where the server has one (MongoDB), and by the
 * sweep every minute everywhere (FerretDB has none). The sweep also keeps the collection under its
 * ceiling, never dropping a window at its limit. Its deletions carry their filter, which MongoDB
 * checks again as it deletes each document; FerretDB reads the documents, then deletes them by
 * `_id`, so there each one is deleted under its key's lock (`atomicDeletes: false`).
 */
export function mongoCounters(
  db: Db,
  locks: DocumentLocks,
  { atomicDeletes }: { atomicDeletes: boolean },
): CounterStore & { close(): void } {
  const c = db.collection<CounterDoc>(COUNTERS_COLLECTION);
  let indexed: Promise<unknown> | undefined;
  const ready = () => {
    indexed ??= c
      .createIndex({ resetAt: 1 }, { expireAfterSeconds: 0 })
      .catch((error: unknown) => {
        if (NO_TTL_INDEX.has((error as { code?: number }).code ?? 0)) return c.createIndex({ resetAt: 1 });
        throw error;
      })
      .catch((error: unknown) => {
        indexed = undefined;
        throw error;
      });
    return indexed;
  };

  async function decide(steps: CounterStep[]) {
    await ready();
    const keys = [...new Set(steps.flatMap((step) => (step.when ? [step.key, step.when.key] : [step.key])))];
    return locks.holding(keys.map(lockName), async () => {
      const now = Date.now();
      const before = new Map<string, StoredWindow>();
      for (const doc of await c.find({ _id: { $in: keys } }).toArray()) {
        const resetAt = doc.resetAt.getTime();
        if (resetAt > now) before.set(doc._id, { count: doc.count, resetAt, limit: limitOf(doc) });
      }
      const { decision, changed } = decideSteps(steps, before, now);
      // Upserts: the sweep or the TTL monitor may have deleted an ended window meanwhile.
      await Promise.all(
        [...changed].map(([key, window]) =>
          c.updateOne({ _id: key }, { $set: stored(window) }, { upsert: true }),
        ),
      );
      return decision;
    });
  }

  /** Deletes the documents of `ids` still matching `filter`, each under its key's lock. */
  async function deleteLocked(ids: string[], filter: Record<string, unknown>): Promise<void> {
    for (let i = 0; i < ids.length; i += PARALLEL_DELETES) {
      await Promise.all(
        ids
          .slice(i, i + PARALLEL_DELETES)
          .map((id) => locks.holding([lockName(id)], () => c.deleteOne({ _id: id, ...filter }))),
      );
    }
  }

  const idsOf = async (cursor: { toArray(): Promise<Array<{ _id: string }>> }) =>
    (await cursor.toArray()).map((doc) => doc._id);

  async function sweep(maxKeys = MAX_COUNTERS): Promise<void> {
    const ended = { resetAt: { $lte: new Date() } };
    if (atomicDeletes) await c.deleteMany(ended);
    else await deleteLocked(await idsOf(c.find(ended, { projection: { _id: 1 } })), ended);
    const excess = (await c.estimatedDocumentCount()) - maxKeys;
    if (excess <= 0) return;
    const soonest = await idsOf(
      c
        .find(BELOW_LIMIT, { projection: { _id: 1 } })
        .sort({ resetAt: 1 })
        .limit(excess),
    );
    // Checked again as each is deleted: one may have reached its limit since it was read.
    if (atomicDeletes) await c.deleteMany({ _id: { $in: soonest }, ...BELOW_LIMIT });
    else await deleteLocked(soonest, BELOW_LIMIT);
  }

  const timer = setInterval(() => void sweep().catch(() => undefined), SWEEP_EVERY_MS);
  timer.unref();

  const counters: CounterStore & { close(): void } = {
    decide,
    add: (key, amount, max, windowMs, limit = max) =>
      addByDecision(counters, key, amount, max, windowMs, limit),
    async get(key) {
      const doc = await c.findOne({ _id: key });
      return doc && doc.resetAt.getTime() > Date.now()
        ? { count: doc.count, resetAt: doc.resetAt.getTime() }
        : null;
    },
    async delete(key) {
      await locks.holding([lockName(key)], () => c.deleteOne({ _id: key }));
    },
    sweep,
    close() {
      clearInterval(timer);
    },
  };
  return counters;
}
