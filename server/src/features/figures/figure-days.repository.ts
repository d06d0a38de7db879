import { setTimeout as sleep } from 'node:timers/promises';
import { type Collection, DuplicateKeyError, type Store, type StoredDoc } from '../../store/store';

/**
 * One day's roll-up (UTC): what happened that day, as counters by name (`signups`,
 * `paying:<price>`, `signups@<source>`…; names never hold a dot, see `counterName`). `_id` is
 * the day, `YYYY-MM-DD`, the same on every process, so the first write of a day makes it once.
 */
export interface FigureDayDoc extends StoredDoc {
  counts: Record<string, number>;
  /** Goes up at every write; writes are compare-and-set on it, so no process's addition is lost. */
  rev: number;
}

/** The marker written once the roll-ups were filled from the members already there. */
export const BACKFILL_MARK = '0000-backfill';

const MAX_TRIES = 200;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a range of settled days is kept, and how many ranges. */
const CACHE_MS = 60_000;
const CACHED_RANGES = 32;

/** The last day that no longer changes: the day before yesterday (UTC). */
const settledUpTo = (now: Date) => new Date(now.getTime() - 2 * DAY_MS).toISOString().slice(0, 10);
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** A counter's name as stored: no dot or dollar (MongoDB reads those as paths and operators). */
export function counterName(text: string): string {
  return text.slice(0, 120).replace(/[%.$]/g, (mark) => `%${mark.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The text a counter's name was made from (`counterName` undone). */
export function counterText(name: string): string {
  return name.replace(/%(25|2E|24)/g, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)));
}

/**
 * The roll-ups' collections: members and money (`figure_days`), page views (`visit_days`,
 * apart so that reading members over ten years never reads every page's counters), and one
 * document per course (`course_figures`, `_id` the course's: see course-roll-ups.ts).
 */
export type RollUps = 'figure_days' | 'visit_days' | 'course_figures';

/** The only code of the daily roll-ups. */
export class FigureDaysRepository {
  private readonly days: Collection<FigureDayDoc>;

  constructor(store: Store, rollUps: RollUps = 'figure_days') {
    this.days = store.collection<FigureDayDoc>(rollUps);
  }

  /** Additions waiting for the write under way of their day, merged: one write takes them all. */
  private readonly waiting = new Map<
    string,
    { amounts: Record<string, number>; done: Array<(error?: unknown) => void> }
  >();
  private readonly writing = new Set<string>();
  private readonly cache = new Map<string, { docs: Promise<FigureDayDoc[]>; until: number }>();

  /**
   * Adds `amounts` to the day's counters. Additions of this process to one day are written one
   * write at a time, those asked meanwhile merged into the next, so a burst costs a few writes;
   * each write is a compare-and-set on `rev`, retried when another process wrote the day first,
   * so additions from every worker and instance all land.
   */
  add(day: string, amounts: Record<string, number>): Promise<void> {
    const entries = Object.entries(amounts).filter(([, amount]) => amount !== 0);
    if (entries.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiting = this.waiting.get(day) ?? { amounts: {}, done: [] };
      for (const [name, amount] of entries) waiting.amounts[name] = (waiting.amounts[name] ?? 0) + amount;
      waiting.done.push((error) => (error ? reject(error) : resolve()));
      this.waiting.set(day, waiting);
      if (!this.writing.has(day)) void this.drain(day);
    });
  }

  private async drain(day: string): Promise<void> {
    // A day written here (a backfill's past days) is read afresh.
    if (day <= settledUpTo(new Date())) this.cache.clear();
    this.writing.add(day);
    for (let next = this.waiting.get(day); next; next = this.waiting.get(day)) {
      this.waiting.delete(day);
      try {
        await this.write(day, next.amounts);
        for (const done of next.done) done();
      } catch (error) {
        for (const done of next.done) done(error);
      }
    }
    this.writing.delete(day);
  }

  private async write(day: string, amounts: Record<string, number>): Promise<void> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const current = await this.days.findById(day);
      const counts = { ...(current?.counts ?? {}) };
      for (const [name, amount] of Object.entries(amounts)) counts[name] = (counts[name] ?? 0) + amount;
      if (!current) {
        try {
          await this.days.insertMany([{ _id: day, counts, rev: 1 }]);
          return;
        } catch (error) {
          if (!(error instanceof DuplicateKeyError)) throw error;
          continue;
        }
      }
      if (await this.days.updateOne({ _id: day, rev: current.rev }, { counts, rev: current.rev + 1 })) return;
      // Several processes on one day: a short random pause spreads the next tries apart.
      if (attempt > 4) await sleep(Math.random() * Math.min(50, attempt * 2));
    }
    throw new Error('The day’s figures could not be updated: too many writes at once');
  }

  /**
   * Every day from `from` to `to` (both included) that has counters, in order. Days before
   * yesterday no longer change (events count on the day they happen): they are read once and
   * kept (CACHED_RANGES ranges at most, for CACHE_MS, so a backfill another process writes shows).
   */
  async between(from: string, to: string): Promise<FigureDayDoc[]> {
    const settled = settledUpTo(new Date());
    if (from > settled) return this.read(from, to);
    const closedTo = to < settled ? to : settled;
    const key = `${from}|${closedTo}`;
    let closed = this.cache.get(key);
    if (!closed || closed.until < Date.now()) {
      closed = { docs: this.read(from, closedTo), until: Date.now() + CACHE_MS };
      if (this.cache.size >= CACHED_RANGES) this.cache.clear();
      this.cache.set(key, closed);
    }
    const docs = await closed.docs.catch((error: unknown) => {
      this.cache.delete(key);
      throw error;
    });
    return to > settled ? [...docs, ...(await this.read(nextDay(settled), to))] : docs;
  }

  /** One roll-up by its id (a course's, in `course_figures`), or null. */
  one(id: string): Promise<FigureDayDoc | null> {
    return this.days.findById(id);
  }

  private read(from: string, to: string): Promise<FigureDayDoc[]> {
    return this.days.find({ _id: { $gte: from, $lte: to } }, { sort: { _id: 1 } });
  }

  /** True once the roll-ups were filled from the members already there (or are being filled). */
  async claimBackfill(): Promise<boolean> {
    try {
      await this.days.insertMany([{ _id: BACKFILL_MARK, counts: {}, rev: 1 }]);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  async isEmpty(): Promise<boolean> {
    return (await this.days.count({}, { limit: 1 })) === 0;
  }
}
