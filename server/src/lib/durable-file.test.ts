import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileDurably } from './durable-file';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'durable-file-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('writeFileDurably', () => {
  it('replaces the whole file, readable by the owner only, and leaves no temp file', async () => {
    const file = path.join(dir, 'settings.json');
    await writeFile(file, 'old and longer than the new text');
    await writeFileDurably(file, 'new');
    expect(await readFile(file, 'utf8')).toBe('new');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it('makes a missing folder first', async () => {
    const file = path.join(dir, 'nginx', 'conf', 'site.conf');
    await writeFileDurably(file, 'server {}\n');
    expect(await readFile(file, 'utf8')).toBe('server {}\n');
  });

  it('with createOnly, leaves a file that is already there as it is', async () => {
    const file = path.join(dir, 'secret');
    await writeFileDurably(file, 'first', { createOnly: true });
    await writeFileDurably(file, 'second', { createOnly: true });
    expect(await readFile(file, 'utf8')).toBe('first');
    expect(await readdir(dir)).toEqual(['secret']);
  });

  it('removes its temp file when the write fails', async () => {
    // The target is a folder: the rename onto it fails after the temp file was written.
    const target = path.join(dir, 'taken');
    await writeFileDurably(path.join(target, 'inside'), 'x');
    await expect(writeFileDurably(target, 'y')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
  });
});
