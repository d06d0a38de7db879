import { AppError } from '../lib/app-error';
import type { Filter, Store, StoredDoc } from './store';

/** A record of each move, written into the target first and marked complete only after the counts matched. */
export const MOVES_COLLECTION = 'store_moves';
const BATCH = 5000;

export interface MoveDoc extends StoredDoc {
  /** 'abandoned': copied, but the site did not switch to it and went on changing without it. */
  state: 'copying' | 'complete' | 'abandoned';
  from: string;
  counts: Record<string, number>;
  finishedAt?: Date;
}

export interface CopyProgress {
  collection: string;
  copied: number;
  total: number;
}

export interface CopyResult {
  /** The move record in the target. */
  moveId: string;
  /** Documents copied per collection (the move record itself not counted). */
  counts: Record<string, number>;
  documents: number;
  milliseconds: number;
}

/**
 * What a target holds, by collection (empty ones left out), and whether an earlier copy into it
 * stopped half-way (its move record never reached 'complete').
 */
export async function contentsOf(
  store: Store,
): Promise<{ counts: Record<string, number>; unfinished: boolean }> {
  const counts: Record<string, number> = {};
  for (const name of await store.collectionNames()) {
    const count = await store.collection(name).count();
    if (count > 0) counts[name] = count;
  }
  const unfinished = counts[MOVES_COLLECTION]
    ? (await store.collection<MoveDoc>(MOVES_COLLECTION).count({ state: { $ne: 'complete' } })) > 0
    : false;
  return { counts, unfinished };
}

/**
 * Copies every collection of `source` into the empty store `target` through the store port:
 * ids, timestamps and every other field as they are, each collection's indexes first, users
 * last. Then checks each collection's count on both sides. The source must not be written to
 * meanwhile (pause its writes, or stop the server that uses it): the counts would not match.
 */
export async function copyStore(
  source: Store,
  target: Store,
  options: { from: string; onProgress?: (progress: CopyProgress) => void },
): Promise<CopyResult> {
  const started = performance.now();
  const existing = await contentsOf(target);
  if (Object.keys(existing.counts).length > 0) {
    const held = Object.entries(existing.counts).map(([name, count]) => `${name}: ${count}`);
    throw new AppError(
      'CONFLICT',
      `The target database is not empty (${held.join(', ')}). The copy only goes into an empty database.`,
    );
  }
  const moves = target.collection<MoveDoc>(MOVES_COLLECTION);
  const move = await moves.insertOne({ state: 'copying', from: options.from, counts: {} });

  const names = (await source.collectionNames()).sort(
    (a, b) => Number(a === 'users') - Number(b === 'users'),
  );
  const ownDatabase = (await source.inspector.server()).database;
  const described = new Map((await source.inspector.collections(ownDatabase))?.map((c) => [c.name, c]) ?? []);

  const counts: Record<string, number> = {};
  for (const name of names) {
    const from = source.collection<StoredDoc>(name);
    const to = target.collection<StoredDoc>(name);
    for (const index of described.get(name)?.indexes ?? []) {
      const fields = Object.keys(index.keys);
      if (fields.length === 1 && fields[0] !== '_id')
        await to.ensureIndex({ field: fields[0]!, unique: index.unique });
    }
    const total = await from.count();
    let copied = 0;
    let last: string | null = null;
    // Pages by _id, so each page is one indexed range read on either store, however far the copy is.
    for (;;) {
      const filter: Filter = last === null ? {} : { _id: { $gt: last } };
      const page = await from.find(filter, { sort: { _id: 1 }, limit: BATCH });
      if (page.length === 0) break;
      await to.insertMany(page);
      copied += page.length;
      options.onProgress?.({ collection: name, copied, total });
      last = page[page.length - 1]!._id;
    }
    counts[name] = copied;
  }

  for (const name of names) {
    const [expected, arrived] = await Promise.all([
      source.collection(name).count(),
      target.collection(name).count(),
    ]);
    // The move record is the one document in the target that the source does not have.
    const extra = name === MOVES_COLLECTION ? 1 : 0;
    if (arrived !== expected + extra || counts[name] !== expected) {
      throw new AppError(
        'INTERNAL',
        `The copy of ${name} does not match: ${expected} documents in the current store, ${arrived - extra} in the target.`,
      );
    }
  }
  await moves.updateById(move._id, { state: 'complete', counts, finishedAt: new Date() });
  const documents = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return { moveId: move._id, counts, documents, milliseconds: performance.now() - started };
}

/** Marks a finished copy as one the site did not switch to, so that nobody takes it for current data. */
export async function abandonCopy(target: Store, moveId: string): Promise<void> {
  await target.collection<MoveDoc>(MOVES_COLLECTION).updateById(moveId, { state: 'abandoned' });
}
