import { setTimeout as sleep } from 'node:timers/promises';
import type { SendingWatcher } from '../../../mail/mailer';
import type { CounterStore } from '../../../store/counters';

/** The one budget of all bulk mail in the store's shared counters. */
const PACE_KEY = 'mail-pace';
/** Transactional messages queued and not yet handed over, in the same counters. */
const ON_THEIR_WAY_KEY = 'mail-transactional';
/** A count left by a process that died between queuing and sending lapses after this. */
const ON_THEIR_WAY_MS = 10_000;
/** The longest one bulk message gives way, however many transactional ones keep coming. */
const GIVE_WAY_MAX_MS = 3_000;
const GIVE_WAY_POLL_MS = 5;

/**
 * The owner's "messages per minute", for all bulk mail together: announcements and the
 * new-lessons digest draw from one budget, whichever process or machine sends them. The budget
 * is a counter in the store's shared counters (`Store.counters`, atomic across processes):
 * `perMinute` is cut into windows of about a second, each allowing a whole number of messages
 * (`n` in `60 s × n / perMinute`), so the rate is exact, and a sender that finds the window
 * spent waits for the next. A message (or a chunk of them) takes one counter step in the store, which neither store
 * makes durable: a counter lost in a crash only gives one fresh second.
 *
 * Bulk mail also gives way to transactional mail (a reset, a receipt): while one is being
 * prepared or queued and not yet handed to the mail server, in any process, no bulk message
 * starts and no record of one already handed over is written (`transactional`, told by the
 * queue), so the reset shares the machine's CPU and disk with at most the chunk in flight.
 */
export class SharedPace {
  /** `holdMs`: how long a message on its way holds bulk mail back at most (tests shorten it). */
  constructor(
    private readonly counters: CounterStore,
    private readonly holdMs = ON_THEIR_WAY_MS,
  ) {}

  /**
   * What the transactional queue tells (Mailer.watchSending). A message's hold is a count in a
   * window of `holdMs`: when that window has ended, the hold went with it, and taking the message
   * off again would take away the hold of another one, counted in a later window.
   */
  readonly transactional: SendingWatcher = {
    queued: async () => (await this.onTheirWay(1)).resetAt,
    settled: async (heldUntil) => {
      if (heldUntil === null || Date.now() < heldUntil) await this.onTheirWay(-1);
    },
  };

  /**
   * Resolves when `count` more messages may go out under `perMinute` (a chunk takes its budget at
   * once) and no transactional message is on its way. The budget comes first: a reset queued while
   * the window was spent still holds the chunk back.
   */
  async wait(perMinute: number, count = 1): Promise<void> {
    const { perWindow, windowMs } = paceWindow(perMinute);
    for (let left = count; left > 0; ) {
      const amount = Math.min(left, perWindow);
      const { added, resetAt } = await this.counters.add(PACE_KEY, amount, perWindow, windowMs);
      if (added) left -= amount;
      else await sleep(Math.max(1, resetAt - Date.now()));
    }
    await this.giveWay();
  }

  /**
   * Resolves once no transactional message is on its way (or after GIVE_WAY_MAX_MS). Besides
   * `wait`, a bulk message already handed over waits here before its record is written.
   */
  async giveWay(): Promise<void> {
    const until = Date.now() + GIVE_WAY_MAX_MS;
    while (Date.now() < until && ((await this.counters.get(ON_THEIR_WAY_KEY))?.count ?? 0) > 0)
      await sleep(GIVE_WAY_POLL_MS);
  }

  private onTheirWay(amount: number) {
    return this.counters.add(ON_THEIR_WAY_KEY, amount, Number.POSITIVE_INFINITY, this.holdMs);
  }
}

/** The window of about a second that holds a whole number of messages at `perMinute`. */
export function paceWindow(perMinute: number): { perWindow: number; windowMs: number } {
  const perWindow = Math.max(1, Math.ceil(perMinute / 60));
  return { perWindow, windowMs: Math.round((60_000 * perWindow) / perMinute) };
}
