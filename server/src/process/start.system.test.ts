import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port';
import { exited } from '../test/spawn-server';

/**
 * `npm start` as people run it (node scripts/start.mjs: the builds when stale, then the
 * supervisor built with the server): its server process is the JavaScript built into
 * dist/server, run by node alone, and that built file finds what it reads next to itself at run
 * time (the web client's files).
 * The client is built first when it is stale, as npm start does (slow the first time only).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const BUILT = path.join(ROOT, 'dist/server/main.js');
const BUILT_SUPERVISOR = path.join(ROOT, 'dist/server/process/supervisor.js');
let dataDir = '';
let url = '';
let output = '';
let supervisor: ChildProcess;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'start-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  supervisor = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATA_DIR: path.join(dataDir, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WORKERS: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  supervisor.stdout?.on('data', (chunk) => (output += chunk));
  supervisor.stderr?.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 170_000;
  while (Date.now() < deadline) {
    if (supervisor.exitCode !== null) throw new Error(`npm start exited: ${output}`);
    // Both workers serve (the second starts once the first does).
    if ((output.match(/serving on /g) ?? []).length >= 2) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`npm start did not answer: ${output}`);
}, 180_000);

afterAll(async () => {
  if (supervisor && supervisor.exitCode === null) {
    supervisor.kill('SIGTERM');
    await exited(supervisor);
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('runs the server built ahead of time with node alone, no TypeScript compiler', async () => {
    const children = (await readFile(`/proc/${supervisor.pid}/task/${supervisor.pid}/children`, 'utf8'))
      .split(' ')
      .filter(Boolean);
    // One process per worker, each the built file run by node with no loader, only the heap setting.
    expect(children, output).toHaveLength(2);
    for (const child of children) {
      const commandLine = (await readFile(`/proc/${child}/cmdline`, 'utf8')).split('\0').filter(Boolean);
      expect(commandLine.slice(1)).toEqual(['--no-memory-reducer', BUILT]);
    }
    // Built now or before, it is not older than the sources it was built from; the supervisor too.
    expect((await stat(BUILT)).mtimeMs).toBeGreaterThanOrEqual((await stat('server/src/main.ts')).mtimeMs);
    const supervisorSource = await stat('server/src/process/supervisor.ts');
    expect((await stat(BUILT_SUPERVISOR)).mtimeMs).toBeGreaterThanOrEqual(supervisorSource.mtimeMs);
  });

  it('serves the web client and the default backgrounds from the built server', async () => {
    const page = await fetch(`${url}/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const slides = (await (await fetch(`${url}/api/slider/public`)).json()) as {
      data: { slides: Array<{ src: string }> };
    };
    const svg = await fetch(`${url}${slides.data.slides[0]!.src}`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });
});
