import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from './free-port';

/**
 * FerretDB, an independent MongoDB-compatible server (Go, Apache 2.0), with its SQLite backend:
 * the real server the MongoDB adapter is tested against, started by the tests as they start nginx.
 * `.ci/run` builds it into the cache below (docs/development.md, "Testing against a real server").
 */
export const FERRETDB_VERSION = 'v1.24.2';

/** Where `.ci/run` installs the binary it builds. */
export function ferretDbCachePath(): string {
  const cache = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  return path.join(cache, 'members-site', `ferretdb-${FERRETDB_VERSION}`, 'ferretdb');
}

const executable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Why `file` cannot serve as FerretDB FERRETDB_VERSION, or null when it can. */
function unusable(file: string): string | null {
  if (!executable(file)) return `${file} is not an executable file`;
  const answer = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const said = `${answer.stdout ?? ''}${answer.stderr ?? ''}`;
  if (said.includes('Invalid build/version/version.txt'))
    return `${file} panics at start (built by \`go install\` alone, without its version.txt)`;
  if (!said.split('\n').includes(`version: ${FERRETDB_VERSION}`))
    return `${file} is not FerretDB ${FERRETDB_VERSION} (its --version says: ${said.trim().split('\n')[0] ?? ''})`;
  return null;
}

/**
 * The binary: FERRETDB_PATH, else the cache `.ci/run` builds into, else `ferretdb` on PATH; the
 * first that answers `--version` with FERRETDB_VERSION.
 */
export function locateFerretDb(): { path: string } | { missing: string } {
  const chosen = process.env.FERRETDB_PATH;
  const candidates = chosen
    ? [chosen]
    : [
        ferretDbCachePath(),
        ...(process.env.PATH ?? '')
          .split(path.delimiter)
          .filter(Boolean)
          .map((dir) => path.join(dir, 'ferretdb')),
      ];
  const reasons: string[] = [];
  for (const file of candidates) {
    if (!chosen && !executable(file)) continue;
    const reason = unusable(file);
    if (!reason) return { path: file };
    reasons.push(reason);
  }
  const looked = chosen ? 'FERRETDB_PATH' : `FERRETDB_PATH, ${ferretDbCachePath()}, PATH`;
  return {
    missing: `FerretDB ${FERRETDB_VERSION} was not found (${looked})${reasons.length ? `: ${reasons.join('; ')}` : ''}`,
  };
}

const HOW_TO_BUILD = 'build it with `.ci/run ferretdb` (it needs Go)';

/**
 * The binary these tests start, or null. On CI (CI=true) a missing FerretDB fails the run instead
 * of skipping, as a missing nginx does.
 */
export function ferretDbForTests(): string | null {
  const located = locateFerretDb();
  if ('path' in located) return located.path;
  if (process.env.CI) throw new Error(`${located.missing}: ${HOW_TO_BUILD}.`);
  console.warn(`${located.missing}. The tests against FerretDB are skipped; ${HOW_TO_BUILD}.`);
  return null;
}

export interface FerretDb {
  port: number;
  /** A database of its own on this server (FerretDB makes it on first write). */
  uri(database: string): string;
  /** What the server printed (warnings and errors only). */
  output(): string;
  close(): Promise<void>;
}

/**
 * Starts FerretDB on a free port of 127.0.0.1 with its own temporary SQLite folder, telemetry and
 * its debug listener off, and waits until it accepts connections.
 */
export async function startFerretDb(binary: string): Promise<FerretDb> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ferretdb-'));
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(
    binary,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${dir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      `--state-dir=${dir}`,
      '--debug-addr=-',
      '--telemetry=disable',
      '--log-level=warn',
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (chunk: Buffer) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const close = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await ended;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 20_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`FerretDB (${binary}) did not start on 127.0.0.1:${port}: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    uri: (database) => `mongodb://127.0.0.1:${port}/${database}?directConnection=true`,
    output: () => output,
    close,
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface FerretDbForFile {
  /** The server, once the file's `beforeAll` has started it. */
  server(): FerretDb;
  /** A fresh database on it, named after `prefix`: each store a test opens gets its own. */
  freshUri(prefix: string): string;
}

/**
 * One FerretDB for the test file that calls this at its top level: started in a `beforeAll`,
 * stopped in an `afterAll`. Null where there is none (skipped with a message; on CI it throws).
 */
export function ferretDbForFile(): FerretDbForFile | null {
  const binary = ferretDbForTests();
  if (!binary) return null;
  let started: FerretDb | undefined;
  let databases = 0;
  beforeAll(async () => {
    started = await startFerretDb(binary);
  }, 30_000);
  afterAll(async () => {
    await started?.close();
  }, 30_000);
  const server = () => {
    if (!started) throw new Error('FerretDB is started in beforeAll: use it from a hook or a test');
    return started;
  };
  return {
    server,
    freshUri(prefix) {
      databases += 1;
      return server().uri(`${prefix}_${databases}`);
    },
  };
}
