import { chmod, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NginxBinary } from '../features/nginx/nginx-binary';
import { isNginxAlive, readPid, workerPids } from '../features/nginx/nginx-process';
import type { NginxSettings } from '../settings/nginx-settings';

/** The nginx these tests drive, or null. On CI a missing nginx fails the run instead of skipping. */
export async function nginxForTests(): Promise<string | null> {
  const located = await new NginxBinary({
    mode: 'managed',
    searchPath: process.env.PATH ?? '',
    dir: '',
  }).locate();
  if ('path' in located) return located.path;
  if (process.env.CI) throw new Error(`${located.missing}: install it with \`apt-get install -y nginx\``);
  console.warn(`${located.missing}. The tests against a real nginx are skipped.`);
  return null;
}

/**
 * A folder nginx may serve. When tests run as root, nginx's workers run as `nobody`, so the
 * folder (a 0700 temp folder by default) is opened up for them to read.
 */
export async function readableTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await chmod(dir, 0o755);
  return dir;
}

/** A small built client: a page, a hashed JS bundle and a large file for slow downloads. */
export async function makeStaticRoot(): Promise<{
  root: string;
  bundle: string;
  bigFile: string;
  bigSize: number;
}> {
  const root = await readableTempDir('nginx-static-');
  await mkdir(path.join(root, 'assets'), { recursive: true });
  await chmod(path.join(root, 'assets'), 0o755);
  await writeFile(
    path.join(root, 'index.html'),
    '<!doctype html><title>Members</title><div id="root"></div>',
  );
  const bundle = '/assets/index-Bx7k2Q9a.js';
  await writeFile(
    path.join(root, bundle),
    `export const app = ${JSON.stringify('x'.repeat(20_000))};\n`.repeat(5),
  );
  const bigSize = 32 * 1024 * 1024;
  await writeFile(path.join(root, 'big.bin'), Buffer.alloc(bigSize, 7));
  return { root, bundle, bigFile: '/big.bin', bigSize };
}

/**
 * Stops the nginx whose pid file is given (gracefully, then by force) and answers the pids of
 * any nginx process of it still alive afterwards: a test asserts that list is empty.
 */
/** SIGKILL that does not mind the process having ended already. */
export function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

export async function stopNginx(pidFile: string): Promise<number[]> {
  const master = await readPid(pidFile);
  if (!master || !(await isNginxAlive(master))) return [];
  const family = [master, ...(await workerPids(master))];
  kill(master, 'SIGQUIT');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const alive = [];
    for (const pid of family) if (await isNginxAlive(pid)) alive.push(pid);
    if (alive.length === 0) return [];
    if (Date.now() > deadline - 2000) for (const pid of alive) kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const left = [];
  for (const pid of family) if (await isNginxAlive(pid)) left.push(pid);
  return left;
}

/** Every live nginx process started on `dir` (a test's own prefix): masters by command line, and their workers. */
export async function nginxProcessesUnder(dir: string): Promise<number[]> {
  const masters: number[] = [];
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(dir) && (await isNginxAlive(Number(entry)))) masters.push(Number(entry));
  }
  const workers = await Promise.all(masters.map((pid) => workerPids(pid)));
  return [...masters, ...workers.flat()];
}

export interface Fetched {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A plain HTTP GET without decompression, so Content-Encoding is seen as sent. */
export function httpGet(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export const testSettings = (dataDir: string): NginxSettings => ({
  mode: 'managed',
  searchPath: process.env.PATH ?? '',
  dir: path.join(dataDir, 'nginx'),
});
