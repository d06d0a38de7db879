// Requests per second of GET /api/slider/public straight to the app and through the managed nginx
// (gzip on), in the same run, alternating rounds so that neither side gets the warmer machine.
// The app runs as `npm start` runs it (node scripts/start.mjs, default log level) in its own
// process, with its own DATA_DIR and free ports; nginx is set up and started through the console's
// own API. Both are stopped at the end, and nothing is left behind.
// Usage: npx tsx bench/nginx-proxy.bench.ts [--seconds 5] [--rounds 3]   (needs nginx installed)
import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import {
  nginxForTests,
  nginxProcessesUnder,
  readableTempDir,
  stopNginx,
} from '../server/src/features/nginx/nginx-test-support';
import { freePort } from '../server/src/test/free-port';

const CONNECTIONS = 10;
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };
const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' } },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);

if (!(await nginxForTests())) process.exit(0);
const root = path.resolve(import.meta.dirname, '..');
const dataDir = await readableTempDir('bench-nginx-');
const [appPort, nginxPort] = [await freePort(), await freePort()];
// The default log level, as `npm start` has it: an inherited LOG_LEVEL is not passed on.
const { LOG_LEVEL: _inherited, ...env } = process.env;
const app = spawn(process.execPath, ['scripts/start.mjs'], {
  cwd: root,
  env: {
    ...env,
    PORT: String(appPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    NGINX_LISTEN_ADDRESS: '127.0.0.1',
    MONGODB_URI: '',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

try {
  const appUrl = `http://127.0.0.1:${appPort}`;
  await waitForHealth(app, appUrl);
  const token = await signIn(appUrl);
  await call(appUrl, token, '/api/system/config', { port: nginxPort, gzipEnabled: true, cacheEnabled: true });
  await call(appUrl, token, '/api/system/restart');

  const targets = {
    app: `${appUrl}/api/slider/public`,
    nginx: `http://127.0.0.1:${nginxPort}/api/slider/public`,
  };
  const sample = await fetch(targets.nginx, { headers: { 'accept-encoding': 'gzip' } });
  if (sample.headers.get('content-encoding') !== 'gzip') throw new Error('nginx did not gzip the answer');
  const direct = await fetch(targets.app, { headers: { 'accept-encoding': 'gzip' } });
  const bytes = (await direct.arrayBuffer()).byteLength;

  const results: Record<keyof typeof targets, Result[]> = { app: [], nginx: [] };
  for (const url of Object.values(targets)) await load(url, 1); // warm-up
  for (let round = 0; round < rounds; round += 1) {
    for (const name of ['app', 'nginx'] as const) results[name].push(await load(targets[name], seconds));
  }

  const rate = (list: Result[]) => list.reduce((sum, r) => sum + r.requests.average, 0) / list.length;
  const p99 = (list: Result[]) => Math.max(...list.map((r) => r.latency.p99));
  console.log(
    `body: ${bytes} bytes from the app (${direct.headers.get('content-encoding') ?? 'not compressed'}), ` +
      `gzip through nginx; ${CONNECTIONS} connections, ${rounds} alternating rounds of ${seconds} s`,
  );
  console.log(
    `straight to the app:    ${Math.round(rate(results.app))} req/s (worst p99 ${p99(results.app)} ms)`,
  );
  console.log(
    `through nginx (gzip):   ${Math.round(rate(results.nginx))} req/s (worst p99 ${p99(results.nginx)} ms)`,
  );
  console.log(`ratio nginx / app: ${(rate(results.nginx) / rate(results.app)).toFixed(2)}`);
} finally {
  const left = await stopNginx(path.join(dataDir, 'nginx', 'logs', 'nginx.pid'));
  const strays = await nginxProcessesUnder(path.join(dataDir, 'nginx'));
  app.kill('SIGTERM');
  await new Promise((resolve) => (app.exitCode === null ? app.once('exit', resolve) : resolve(null)));
  await rm(dataDir, { recursive: true, force: true });
  if (left.length + strays.length > 0) {
    console.error(`nginx processes left running: ${[...left, ...strays].join(', ')}`);
    process.exitCode = 1;
  }
}

async function load(url: string, duration: number): Promise<Result> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    headers: { 'accept-encoding': 'gzip' },
  });
  // A stray socket error on a machine shared with other work is reported; more than 1 in 1000 fails the run.
  const total = (result.requests as { total?: number }).total ?? 0;
  if (result.non2xx || result.errors > total / 1000) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors of ${total}`);
  }
  if (result.errors) console.warn(`${url}: ${result.errors} socket errors of ${total} requests`);
  return result;
}

async function waitForHealth(child: ChildProcess, url: string): Promise<void> {
  // The first start may build the web client.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('The app did not answer /api/health');
}

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return ((await response.json()) as { token: string }).token;
}

async function call(url: string, token: string, pathname: string, body?: object): Promise<void> {
  const response = await fetch(`${url}${pathname}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`POST ${pathname}: ${response.status} ${await response.text()}`);
}
