import { setTimeout as sleep } from 'node:timers/promises';
import type { CounterStore } from '../../../store/counters';

/** The one budget of all bulk mail in the store's shared counters. */
const PACE_KEY = 'mail-pace';

/**
 * The owner's "messages per minute", for all bulk mail together: announcements and the
 * new-lessons digest draw from one budget, whichever process or machine sends them. The budget
 * is a counter in the store's shared counters (`Store.counters`, atomic across processes):
 * `perMinute` is cut into windows of about a second, each allowing a whole number of messages
 * (`n` in `60 s × n / perMinute`), so the rate is exact, and a sender that finds the window
 * spent waits for the next. A message takes one counter step in the store, which neither store
 * makes durable: a counter lost in a crash only gives one fresh second.
 */
export class SharedPace {
  constructor(private readonly counters: CounterStore) {}

  /** Resolves when one more message may go out under `perMinute`. */
  async wait(perMinute: number): Promise<void> {
    const { perWindow, windowMs } = paceWindow(perMinute);
    for (;;) {
      const { added, resetAt } = await this.counters.add(PACE_KEY, 1, perWindow, windowMs);
      if (added) return;
      await sleep(Math.max(1, resetAt - Date.now()));
    }
  }
}

/** The window of about a second that holds a whole number of messages at `perMinute`. */
export function paceWindow(perMinute: number): { perWindow: number; windowMs: number } {
  const perWindow = Math.max(1, Math.ceil(perMinute / 60));
  return { perWindow, windowMs: Math.round((60_000 * perWindow) / perMinute) };
}
