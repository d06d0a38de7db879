import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../lib/app-error';
import { newId } from '../../store/new-id';
import { type Collection, DuplicateKeyError, type Store, type StoredDoc } from '../../store/store';

interface LeaseDoc extends StoredDoc {
  name: string;
  /** Who holds it (a fresh id per holding), or '' when free. */
  holder: string;
  /** When the holding lapses by itself, in ms since the epoch (a holder that died lets go). */
  expiresAt: number;
}

export interface LeaseOptions {
  /** How long one holding lasts at most; the work must be done well within it. */
  ttlMs?: number;
  /** How long to wait for another holder before answering 503. */
  waitMs?: number;
}

/** Far beyond the few store calls a guarded change makes, far below a visitor's patience. */
const TTL_MS = 30_000;
const WAIT_MS = 10_000;
const RETRY_MS = 15;

/**
 * A lock held in the store, so it holds across server processes and machines: `run(name, work)`
 * runs `work` only while this process holds the lease `name`, which no other process can take
 * meanwhile. Taking it is one conditional write: the lease document is created free once, with an
 * id made from its name (ids are unique on every store, so two processes cannot both create it),
 * then taken by a compare-and-set from free or lapsed to this holder; letting go is a
 * compare-and-set back to free by the same holder.
 *
 * A process that dies while holding it leaves the lease to lapse after `ttlMs`; nothing it did
 * is undone, and nothing else needs undoing, since the work under the lease is a check followed
 * by one write. A holder still alive past `ttlMs` (a process frozen for 30 s) could overlap with
 * the next one, so `work` is refused before its write when the holding is past half its time:
 * `assertHeld()` is called right before the write.
 */
export class StoreLeases {
  private readonly leases: Collection<LeaseDoc>;

  constructor(store: Store) {
    this.leases = store.collection<LeaseDoc>('leases');
  }

  async run<R>(
    name: string,
    busyMessage: string,
    work: (held: { assertHeld(): void }) => Promise<R>,
    options: LeaseOptions = {},
  ): Promise<R> {
    const ttlMs = options.ttlMs ?? TTL_MS;
    const holder = newId();
    const id = leaseId(name);
    const takenAt = await this.take(id, name, holder, ttlMs, options.waitMs ?? WAIT_MS, busyMessage);
    try {
      return await work({
        assertHeld() {
          if (Date.now() - takenAt > ttlMs / 2) throw new AppError('UNAVAILABLE', busyMessage);
        },
      });
    } finally {
      await this.leases.updateOne({ _id: id, holder }, { holder: '', expiresAt: 0 }).catch(() => undefined);
    }
  }

  /** Takes the lease for `holder`, waiting while another holds it; answers when it was taken. */
  private async take(
    id: string,
    name: string,
    holder: string,
    ttlMs: number,
    waitMs: number,
    busyMessage: string,
  ): Promise<number> {
    const giveUpAt = Date.now() + waitMs;
    for (;;) {
      const now = Date.now();
      const taken = await this.leases.updateOne(
        { _id: id, expiresAt: { $lte: now } },
        { holder, expiresAt: now + ttlMs },
      );
      if (taken) return now;
      if (!(await this.leases.findById(id))) {
        try {
          await this.leases.insertMany([{ _id: id, name, holder: '', expiresAt: 0 }]);
        } catch (error) {
          if (!(error instanceof DuplicateKeyError)) throw error;
        }
        continue;
      }
      if (Date.now() >= giveUpAt) throw new AppError('UNAVAILABLE', busyMessage);
      await sleep(RETRY_MS + Math.random() * RETRY_MS);
    }
  }
}

/** The lease document's id: the same on every process, like any other id in form (24 hex digits). */
function leaseId(name: string): string {
  return createHash('sha256').update(`lease:${name}`).digest('hex').slice(0, 24);
}
