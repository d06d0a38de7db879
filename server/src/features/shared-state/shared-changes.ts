import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../../store/new-id';
import { type Collection, DuplicateKeyError, type Store, type StoredDoc } from '../../store/store';

/** What other processes cache and must rebuild when it changes anywhere. */
export type ChangeTopic =
  /** The slideshow: its settings, the playlists, the media library (the public slides). */
  | 'slider'
  /** The Node.js panel's settings (DATA_DIR/app-server.json): CORS, request size, rate limit, log level. */
  | 'app-server'
  /** Courses, their sections and lessons (the public course pages' worked-out HTML). */
  | 'courses'
  /** The site's identity and the owner's pages (every page's name, logo, texts; the mails' name). */
  | 'site';

/** How often each process asks the store whether another one changed something. */
export const POLL_EVERY_MS = 300;

interface ChangeDoc extends StoredDoc {
  topic: ChangeTopic;
  /** A fresh value at every change: only whether it differs matters. */
  stamp: string;
}

/**
 * Tells every server process of the site, within about POLL_EVERY_MS, that another one changed
 * something it caches. One small document per topic in the `changes` collection gets a fresh
 * stamp in the write path of each change (`bump`); each process reads that collection (a few
 * documents) every POLL_EVERY_MS and, for each stamp that differs from the one it saw last, bumps
 * the topic's revision and calls its listeners. Reading a revision costs a map lookup, so the hot
 * `GET /api/slider/public` checks its cache without any store read.
 */
export class SharedChanges {
  private readonly changes: Collection<ChangeDoc>;
  private readonly revisions = new Map<ChangeTopic, number>();
  /** The last stamp seen, by document (a topic whose first two writes raced may have two). */
  private readonly seen = new Map<string, string>();
  private readonly listeners = new Map<ChangeTopic, Set<() => void>>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  /** Whether the last poll failed: a store that stays away is logged once, not three times a second. */
  private failing = false;

  constructor(
    store: Store,
    private readonly log?: FastifyBaseLogger,
    private readonly pollEveryMs = POLL_EVERY_MS,
  ) {
    this.changes = store.collection<ChangeDoc>('changes');
  }

  /** Learns the current stamps (what the caches, built from now on, already reflect). */
  async init(): Promise<void> {
    await this.changes.ensureIndex({ field: 'topic', unique: true });
    for (const doc of await this.changes.find({})) this.seen.set(doc._id, doc.stamp);
  }

  /** Starts watching for other processes' changes; stop() ends it. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.polling ??= this.poll().finally(() => {
        this.polling = undefined;
      });
    }, this.pollEveryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.polling;
  }

  /** Goes up at every change to `topic`, made by this process or any other. */
  revision(topic: ChangeTopic): number {
    return this.revisions.get(topic) ?? 0;
  }

  /** Called by other processes' changes to `topic` (this process's own callers act themselves). */
  on(topic: ChangeTopic, listener: () => void): void {
    const set = this.listeners.get(topic) ?? new Set();
    set.add(listener);
    this.listeners.set(topic, set);
  }

  /**
   * Records a change to `topic`, made by this process: its own caches see it at once, the other
   * processes at their next poll. Never rejects: the change itself is saved already, and should
   * the stamp not be written, other processes still rebuild when their caches age out.
   */
  async bump(topic: ChangeTopic): Promise<void> {
    this.advance(topic);
    const stamp = newId();
    try {
      const updated = await this.changes.updateOne({ topic }, { stamp });
      if (updated) this.seen.set(updated._id, stamp);
      else {
        try {
          const created = await this.changes.insertOne({ topic, stamp });
          this.seen.set(created._id, stamp);
        } catch (error) {
          // Another process created the topic's document at the same moment: stamp that one.
          if (!(error instanceof DuplicateKeyError)) throw error;
          const raced = await this.changes.updateOne({ topic }, { stamp });
          if (raced) this.seen.set(raced._id, stamp);
        }
      }
    } catch (error) {
      this.log?.error({ err: error, topic }, 'Could not tell the other server processes about a change');
    }
  }

  /** One read of the (few) change documents; a stamp not seen before is another process's change. */
  async poll(): Promise<void> {
    let docs: ChangeDoc[];
    try {
      docs = await this.changes.find({});
    } catch (error) {
      if (!this.failing)
        this.log?.warn({ err: error }, 'Could not check for changes made by other server processes');
      this.failing = true;
      return;
    }
    if (this.failing) this.log?.info('Checking for changes made by other server processes again');
    this.failing = false;
    for (const doc of docs) {
      if (this.seen.get(doc._id) === doc.stamp) continue;
      this.seen.set(doc._id, doc.stamp);
      this.advance(doc.topic);
      for (const listener of this.listeners.get(doc.topic) ?? []) {
        try {
          listener();
        } catch (error) {
          this.log?.error({ err: error, topic: doc.topic }, 'A cache could not follow a change');
        }
      }
    }
  }

  private advance(topic: ChangeTopic): void {
    this.revisions.set(topic, this.revision(topic) + 1);
  }
}
