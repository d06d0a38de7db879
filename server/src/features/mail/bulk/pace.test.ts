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
    const held = await queueSide.transactional.queued();
    let went = false;
    const waiting = bulkSide.wait(6000).then(() => {
      went = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(went).toBe(false);
    await queueSide.transactional.settled(held);
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
    const held = await queueSide.transactional.queued();
    await new Promise((resolve) => setTimeout(resolve, 1_300)); // the next window has begun
    expect(went).toBe(false);
    await queueSide.transactional.settled(held);
    await waiting;
    expect(went).toBe(true);
  });

  it('lets a hold lapse with its window, and its end then takes nothing from a later hold', async () => {
    const own = await mkdtemp(path.join(tmpdir(), 'pace-hold-'));
    const fresh = openSqliteCounters(own);
    try {
      const queueSide = new SharedPace(fresh, 300);
      const bulkSide = new SharedPace(fresh, 300);
      const first = await queueSide.transactional.queued();
      await new Promise((resolve) => setTimeout(resolve, 400)); // its window has ended
      const second = await queueSide.transactional.queued();
      await queueSide.transactional.settled(first); // the first goes, late
      let went = false;
      const waiting = bulkSide.giveWay().then(() => {
        went = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(went).toBe(false); // the second still holds bulk mail back
      await queueSide.transactional.settled(second);
      await waiting;
      expect(went).toBe(true);
    } finally {
      fresh.close();
      await rm(own, { recursive: true, force: true });
    }
  });
});
