import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteCounters } from '../../../store/sqlite/counters';
import { paceWindow, SharedPace } from './pace';

/*
 * The pace's windows, and bulk mail giving way to transactional mail: while a reset is queued
 * and not yet handed over (told by the queue, possibly in another process: the counters are the
 * store's), no bulk message starts. How the pace holds announcements and the digest together to
 * the owner's rate is in digest/digest-runner.test.ts.
 */

let dir = '';
let counters: ReturnType<typeof openSqliteCounters>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pace-'));
  counters = openSqliteCounters(dir);
});
afterAll(async () => {
  counters.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the pace of bulk mail', () => {
  it('cuts the rate into windows of about a second, each a whole number of messages', () => {
    expect(paceWindow(6000)).toEqual({ perWindow: 100, windowMs: 1000 });
    expect(paceWindow(90)).toEqual({ perWindow: 2, windowMs: 1333 });
    expect(paceWindow(10)).toEqual({ perWindow: 1, windowMs: 6000 });
  });

  it('holds bulk mail back while a transactional message is on its way, in any process', async () => {
    const queueSide = new SharedPace(counters);
    const bulkSide = new SharedPace(counters);
    await queueSide.transactional.queued();
    let went = false;
    const waiting = bulkSide.wait(6000).then(() => {
      went = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(went).toBe(false);
    await queueSide.transactional.settled();
    await waiting;
    expect(went).toBe(true);
  });

  it('still holds a chunk back when a transactional message comes while it waits for the window', async () => {
    const queueSide = new SharedPace(counters);
    const bulkSide = new SharedPace(counters);
    await bulkSide.wait(60); // one a second: this window is spent
    let went = false;
    const waiting = bulkSide.wait(60).then(() => {
      went = true;
    });
    await queueSide.transactional.queued();
    await new Promise((resolve) => setTimeout(resolve, 1_300)); // the next window has begun
    expect(went).toBe(false);
    await queueSide.transactional.settled();
    await waiting;
    expect(went).toBe(true);
  });
});
