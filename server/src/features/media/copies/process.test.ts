import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CopiesProcess } from './process';

let base: string;
let maker: CopiesProcess;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'copies-process-'));
  await mkdir(path.join(base, 'image'));
  const photo = sharp({ create: { width: 1200, height: 800, channels: 3, background: '#369' } });
  await writeFile(path.join(base, 'image', 'a.jpg'), await photo.jpeg().toBuffer());
  maker = new CopiesProcess();
});
afterEach(async () => {
  await maker.close();
  await rm(base, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('makes the copies in a child process, which leaves when let go', async () => {
  expect(await maker.make(base, 'image/a.jpg')).toMatchObject({ outcome: 'made' });
  expect(await maker.make(base, 'image/a.jpg')).toMatchObject({ outcome: 'current' });
  expect(await maker.make(base, 'image/missing.jpg')).toMatchObject({ outcome: 'gone' });
  const pid = maker.pid!;
  expect(pid).not.toBe(process.pid);
  await maker.close();
  expect(alive(pid)).toBe(false);
});

it('answers an error when the child dies mid-job, and the next job gets a new one', async () => {
  const job = maker.make(base, 'image/a.jpg');
  const first = maker.pid!;
  process.kill(first, 'SIGKILL');
  expect(await job).toMatchObject({ error: expect.stringMatching(/stopped \(SIGKILL\)/) });
  expect(await maker.make(base, 'image/a.jpg')).toMatchObject({ outcome: 'made' });
  expect(maker.pid).not.toBe(first);
});
