// A restart from the console under load: `npm start` (its supervisor and the real server) on
// its own data folder, 50 connections for 10 s through autocannon, mixing reads with writes
// (administrators adding users), and POST /api/admin/nodejs/restart early enough that the switch
// to the new server process (which first loads its code, 2-7 s on a busy 2-core machine) falls
// inside the load. Reports requests sent, failed (target: 0), the longest wait and when the
// switch happened, then checks that every user whose creation was acknowledged is in the store
// of the restarted server. With several workers the restart replaces them one at a time; the
// switch ends when every worker is new.
// Usage: npx tsx bench/restart.bench.ts [--workers N] [--seconds 10]  (workers: the product's default when not given)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type RequestParams } from 'autocannon';
import { confirmPassword, signIn, startProduct } from './support/product';

const { values: options } = parseArgs({
  options: { workers: { type: 'string' }, seconds: { type: 'string', default: '10' } },
});
const CONNECTIONS = 50;
const SECONDS = Number(options.seconds);
const RESTART_AT_MS = 500;
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-restart-'));
// Default settings, the log level included: at `info` every console change (here, each
// playlist and user created) is logged, as it is for an owner.
const server = await startProduct({
  dataDir,
  logFile: path.join(dataDir, 'server.log'),
  env: {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ...(options.workers ? { WORKERS: options.workers } : {}),
  },
});
const base = server.url;

let exitCode = 0;
try {
  const token = await signIn(base, ADMIN);
  const auth = { authorization: `Bearer ${token}` };
  // Restarting needs the password confirmed, as in the console.
  const proof = await confirmPassword(base, token, ADMIN.password);
  const firstStart = await startedAt(auth);

  // Writes of two kinds: playlists (cheap) and users (each costs an argon2 hash, like a sign-up).
  const acknowledged = { users: [] as string[], playlists: [] as string[] };
  let written = 0;
  const json = { ...auth, 'content-type': 'application/json' };
  const createPlaylist = {
    method: 'POST',
    path: '/api/playlists',
    headers: json,
    setupRequest(request: RequestParams, context: Record<string, unknown>) {
      written += 1;
      context.name = `bench-${written}`;
      return { ...request, body: JSON.stringify({ name: context.name, items: [] }) };
    },
    onResponse(status: number, _body: string, context: Record<string, unknown>) {
      if (status === 201) acknowledged.playlists.push(context.name as string);
    },
  };
  const createUser = {
    method: 'POST',
    path: '/api/admin/users',
    headers: json,
    setupRequest(request: RequestParams, context: Record<string, unknown>) {
      written += 1;
      context.email = `bench-${written}@example.com`;
      return {
        ...request,
        body: JSON.stringify({ name: `Bench ${written}`, email: context.email, password: 'bench-pass' }),
      };
    },
    onResponse(status: number, _body: string, context: Record<string, unknown>) {
      if (status === 201) acknowledged.users.push(context.email as string);
    },
  };
  const read = (path: string, signedIn = true) => ({ method: 'GET', path, headers: signedIn ? auth : {} });
  // Each request's start and end (a connection sends its next request as soon as it is built).
  const timings: Array<{ start: number; end: number }> = [];
  type Entry = ReturnType<typeof read> & Partial<typeof createUser>;
  const timed = (entry: Entry) => ({
    ...entry,
    setupRequest(request: RequestParams, context: Record<string, unknown>) {
      context.startedAt = performance.now();
      return entry.setupRequest ? entry.setupRequest(request, context) : request;
    },
    onResponse(status: number, body: string, context: Record<string, unknown>) {
      timings.push({ start: context.startedAt as number, end: performance.now() });
      entry.onResponse?.(status, body, context);
    },
  });
  const run = autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 30,
    requests: (
      [
        read('/api/admin/stats'),
        read('/api/slider/public', false),
        createPlaylist,
        read('/api/admin/users?page=2'),
        read('/api/health', false),
        createPlaylist,
        read('/api/admin/nodejs/status'),
        read('/api/slider/public', false),
        createPlaylist,
        read('/api/playlists'),
        read('/api/admin/stats'),
        createUser,
      ] as Entry[]
    ).map(timed),
  });

  const loadStarted = performance.now();
  await new Promise((resolve) => setTimeout(resolve, RESTART_AT_MS));
  const restart = await fetch(`${base}/api/admin/nodejs/restart`, {
    method: 'POST',
    headers: { ...auth, 'x-reauth': proof },
  });
  // The answer comes once the new process has loaded its code; the hand-over starts right after.
  const handOverAt = performance.now() - loadStarted;
  if (!restart.ok) throw new Error(`restart answered ${restart.status}: ${await restart.text()}`);
  // The first answer from the new process ends the switch.
  let servingAt = Number.POSITIVE_INFINITY;
  while (performance.now() - loadStarted < SECONDS * 1000) {
    if ((await startedAt(auth)) > firstStart + 1000) {
      servingAt = performance.now() - loadStarted;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const result = await run;
  const switchFrom = loadStarted + handOverAt;
  const switchTo = loadStarted + servingAt;
  const longest = (list: typeof timings) => Math.max(0, ...list.map((t) => t.end - t.start)).toFixed(0);
  const acrossSwitch = timings.filter((t) => t.start <= switchTo && t.end >= switchFrom);
  const restarted = (await startedAt(auth)) > firstStart + 1000;

  const csv = await (await fetch(`${base}/api/admin/users/export.csv`, { headers: auth })).text();
  const stored = new Set(
    ((await (await fetch(`${base}/api/playlists`, { headers: auth })).json()) as Array<{ name: string }>).map(
      (playlist) => playlist.name,
    ),
  );
  const missing = [
    ...acknowledged.users.filter((email) => !csv.includes(email)),
    ...acknowledged.playlists.filter((name) => !stored.has(name)),
  ];
  const failed = result.errors + result.timeouts + result.non2xx;

  const { status } = (await (await fetch(`${base}/api/admin/nodejs/status`, { headers: auth })).json()) as {
    status: { workers: unknown[] };
  };
  console.log(
    `restart under load: ${status.workers.length} worker(s), ${CONNECTIONS} connections for ${SECONDS} s, restart asked at ${RESTART_AT_MS / 1000} s`,
  );
  console.log(`  requests sent      ${result.requests.sent}`);
  console.log(
    `  answered           ${result.requests.total}   (the last request of each connection is cut off when the run ends)`,
  );
  console.log(
    `  failed             ${failed}   (errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx})`,
  );
  console.log(
    `  longest wait       ${longest(acrossSwitch)} ms across the switch (${acrossSwitch.length} requests); ${longest(timings)} ms in the whole run (p99 ${result.latency.p99} ms, median ${result.latency.p50} ms)`,
  );
  console.log(
    `  switch             first hand-over from ${(handOverAt / 1000).toFixed(1)} s, every worker new at ${(servingAt / 1000).toFixed(1)} s`,
  );
  console.log(`  server restarted   ${restarted ? 'yes' : 'NO'}`);
  console.log(
    `  writes             ${acknowledged.playlists.length} playlists and ${acknowledged.users.length} users acknowledged, ${missing.length} missing afterwards`,
  );
  if (servingAt >= SECONDS * 1000) {
    console.error('INVALID: the switch did not happen under load (the machine is too busy); run it again.');
    exitCode = 1;
  } else if (failed > 0 || missing.length > 0 || !restarted) {
    console.error(
      'FAILED: the target is 0 failed requests and every acknowledged write kept, across a restart.',
    );
    exitCode = 1;
  }
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);

/** When the oldest worker serving started (the status's uptime is the longest): later once a restart is over. */
async function startedAt(headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${base}/api/admin/nodejs/status`, { headers });
  return Date.now() - ((await response.json()) as { status: { uptime: number } }).status.uptime;
}
