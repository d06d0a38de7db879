import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from './store';

let dataDir = '';
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'store-lock-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));
const lockFile = () => path.join(dataDir, 'db', '.lock');

describe('the embedded store is open in one process at a time', () => {
  it('holds a lock with its pid while open, refuses a second opening, and lets go when closed', async () => {
    const store = await openEmbeddedStore(dataDir);
    const things = store.collection('things');
    expect((await readFile(lockFile(), 'utf8')).trim()).toBe(String(process.pid));
    await expect(openEmbeddedStore(dataDir)).rejects.toThrow(/already open in this process/);
    await store.close();
    await expect(stat(lockFile())).rejects.toThrow();
    // Nothing more reaches the files once another process may have opened them.
    await expect(things.count()).rejects.toThrow(/closed/);
    expect(() => store.collection('things')).toThrow(/closed/);
    const again = await openEmbeddedStore(dataDir);
    await again.close();
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const first = await openEmbeddedStore(dataDir);
    await first
      .collection<{ _id: string; createdAt: Date; updatedAt: Date; n: number }>('things')
      .insertOne({ n: 1 });
    await first.close();
    await writeFile(lockFile(), '2147483646\n'); // no such process
    const store = await openEmbeddedStore(dataDir);
    expect(await store.collection('things').count()).toBe(1);
    await store.close();
  });

  it('waits for another live owner, then says who holds it', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await openEmbeddedStore(dataDir).then((s) => s.close());
      await writeFile(lockFile(), `${other.pid}\n`);
      const started = Date.now();
      await expect(openEmbeddedStore(dataDir)).rejects.toThrow(new RegExp(`in use by process ${other.pid}`));
      expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
    } finally {
      other.kill();
    }
  });
});
