import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { COUNTERS_FILE, openSqliteCounters } from './counters';

let dir = '';
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the counters file of an earlier version', () => {
  it('gains the limit column; its running windows are kept by the sweep until they end', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'counters-'));
    const old = new Database(path.join(dir, COUNTERS_FILE));
    old.exec(
      'CREATE TABLE counters (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL) WITHOUT ROWID',
    );
    old.prepare('INSERT INTO counters VALUES (?, ?, ?)').run('old', 1, Date.now() + 60_000);
    old.close();
    const counters = openSqliteCounters(dir);
    try {
      // Its limit is not known: it might be one being enforced.
      await counters.sweep(0);
      expect(await counters.get('old')).toMatchObject({ count: 1 });
      await counters.add('new', 1, 10, 60_000);
      await counters.sweep(1);
      expect(await counters.get('new')).toBeNull();
      expect(await counters.get('old')).toMatchObject({ count: 1 });
    } finally {
      counters.close();
    }
    // Opening it again (another worker, a restart) finds the column there.
    openSqliteCounters(dir).close();
  });
});
