import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer } from '../../test/spawn-server';

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the jwt-secret file (16.10)', () => {
  it('the server stops at start with that one line and the exit code that asks for no restart', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'key-'));
    await writeFile(path.join(dir, 'jwt-secret'), 'abc\n', { mode: 0o600 });
    await expect(spawnServer({ DATA_DIR: dir, MONGODB_URI: '', JWT_SECRET: '' })).rejects.toThrow(
      `Server exited with 78: ${path.join(dir, 'jwt-secret')} holds 3 bytes`,
    );
  }, 30_000);
});
