// Two machines behind nginx, one of them lost under load (docs/processes.md, "Several machines"): two
// `npm start` instances on the project's MongoDB stand-in (or the real MongoDB of MONGODB_URI),
// one media folder and one JWT_SECRET, behind the nginx instance A drives with both as proxy
// targets. 50 connections through nginx for 8 s, mixing the public slideshow, the health check
// and a signed-in member's own page; 3 s in, instance B is stopped (SIGTERM, as `systemctl stop`),
// then, after B is back, killed (SIGKILL, as a power cut). Reports, for each: requests sent,
// failed (target: 0), the median and the longest wait.
// Usage: npx tsx bench/two-machines.bench.ts
import autocannon, { type RequestParams } from 'autocannon';
import { startMongoStandIn } from '../server/src/test/mongo-stand-in';
import { signIn } from './support/product';
import { startTwoInstances } from './support/two-instances';

const CONNECTIONS = 50;
const SECONDS = 8;
const LOSE_AT_MS = 3000;
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

const standIn = process.env.MONGODB_URI ? null : await startMongoStandIn();
const mongoUri = (() => {
  if (standIn) return standIn.uri('members');
  const url = new URL(process.env.MONGODB_URI as string);
  url.pathname = `/bench_two_machines_${Date.now()}`;
  return url.toString();
})();
const site = await startTwoInstances({
  mongoUri,
  admin: ADMIN,
  jwtSecret: 'bench-two-machines-secret-0123456789abcdefghij',
  env: { RATE_LIMIT_MAX: '1000000' },
});

let exitCode = 0;
try {
  const member = { name: 'Bench member', email: 'member@example.com', password: 'member-password-1' };
  await fetch(`${site.a.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(member),
  });
  const token = await signIn(site.nginx, member);

  async function underLoad(what: string, lose: () => Promise<void>): Promise<boolean> {
    const waits: number[] = [];
    const timed = (entry: { method: string; path: string; headers?: Record<string, string> }) => ({
      ...entry,
      setupRequest(request: RequestParams, context: Record<string, unknown>) {
        context.startedAt = performance.now();
        return request;
      },
      onResponse(_status: number, _body: string, context: Record<string, unknown>) {
        waits.push(performance.now() - (context.startedAt as number));
      },
    });
    const run = autocannon({
      url: site.nginx,
      connections: CONNECTIONS,
      duration: SECONDS,
      timeout: 30,
      requests: [
        timed({ method: 'GET', path: '/api/slider/public' }),
        timed({ method: 'GET', path: '/api/health' }),
        timed({ method: 'GET', path: '/api/auth/me', headers: { authorization: `Bearer ${token}` } }),
        timed({ method: 'GET', path: '/api/slider/public' }),
      ],
    });
    await new Promise((resolve) => setTimeout(resolve, LOSE_AT_MS));
    await lose();
    const result = await run;
    const failed = result.errors + result.timeouts + result.non2xx;
    waits.sort((x, y) => x - y);
    console.log(
      `${what} at ${LOSE_AT_MS / 1000} s, ${CONNECTIONS} connections for ${SECONDS} s through nginx`,
    );
    console.log(`  requests sent      ${result.requests.sent}`);
    console.log(`  failed             ${failed}  (target 0)`);
    console.log(`  median wait        ${(waits[Math.floor(waits.length / 2)] ?? 0).toFixed(1)} ms`);
    console.log(`  longest wait       ${(waits.at(-1) ?? 0).toFixed(0)} ms`);
    return failed === 0;
  }

  const stopped = await underLoad('instance B stopped (SIGTERM)', () => site.b.stop());
  await site.restartB();
  await site.reloadNginx();
  const killed = await underLoad('instance B killed (SIGKILL)', () => site.b.crash());
  if (!stopped || !killed) exitCode = 1;
} finally {
  const left = await site.stop();
  await standIn?.close();
  if (left.length > 0) {
    console.error(`nginx processes left: ${left.join(', ')}`);
    exitCode = 1;
  }
}
process.exit(exitCode);
