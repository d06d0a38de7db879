// Requests per second of GET /api/slider/public straight to the app and through the managed nginx
// (gzip on), in the same run, alternating rounds so that neither side gets the warmer machine.
// The app runs as `npm start` runs it (node scripts/start.mjs, default log level) in its own
// process, with its own DATA_DIR and free ports; nginx is set up and started through the console's
// own API. Both are stopped at the end, and nothing is left behind.
// Usage: npx tsx bench/nginx-proxy.bench.ts [--seconds 5] [--rounds 3]   (needs nginx installed)
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import { freePort } from '../server/src/test/free-port';
import {
  nginxForTests,
  nginxProcessesUnder,
  readableTempDir,
  stopNginx,
} from '../server/src/test/real-nginx';
import { confirmPassword, signIn, startProduct } from './support/product';

const CONNECTIONS = 10;
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };
const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' } },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);

if (!(await nginxForTests())) process.exit(0);
const dataDir = await readableTempDir('bench-nginx-');
const nginxPort = await freePort();
const app = await startProduct({
  dataDir,
  logFile: path.join(dataDir, 'product.log'),
  env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, NGINX_LISTEN_ADDRESS: '127.0.0.1' },
});

try {
  const appUrl = app.url;
  const token = await signIn(appUrl, ADMIN);
  // Saving and restarting nginx need the password confirmed, as in the console.
  const proof = await confirmPassword(appUrl, token, ADMIN.password);
  await call(appUrl, token, proof, '/api/system/config', {
    port: nginxPort,
    gzipEnabled: true,
    cacheEnabled: true,
  });
  await call(appUrl, token, proof, '/api/system/restart');

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
  await app.stop();
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

async function call(
  url: string,
  token: string,
  proof: string,
  pathname: string,
  body?: object,
): Promise<void> {
  const response = await fetch(`${url}${pathname}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'x-reauth': proof,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`POST ${pathname}: ${response.status} ${await response.text()}`);
}
