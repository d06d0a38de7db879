// Durability proven with strace: user sign-ups against `npm start`, its server process traced with
// `strace -f -e trace=fsync,fdatasync,write,writev` (Node sends an answer's head and body with one
// writev), and for every 201 answer written to a socket, whether
// an fsync/fdatasync of the database file or its WAL came after the previous answer and before it.
// One sign-up at a time, so that each answer follows its own write. Then, untraced, the sign-up
// throughput (requests per second, 8 at once) with synchronous=FULL.
// Usage: npx tsx bench/durability.bench.ts [--signups N]   (target: every 201 preceded by an fsync)
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startProduct } from './support/product';

const { values } = parseArgs({
  options: { signups: { type: 'string', default: '200' }, throughput: { type: 'string', default: '400' } },
});
const SIGNUPS = Number(values.signups);
const THROUGHPUT = Number(values.throughput);

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-durability-'));
// Sign-ups from one address: the general limit is raised so that it never answers 429 here.
const product = await startProduct({
  dataDir,
  logFile: path.join(dataDir, 'server.log'),
  env: { RATE_LIMIT_MAX: '1000000' },
});
const register = (i: number) =>
  fetch(`${product.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `Member ${i}`,
      email: `member${i}@example.com`,
      password: `password-${i}-x`,
    }),
  });
try {
  const pid = await product.serverPid();
  const traceFile = path.join(dataDir, 'strace.txt');
  const strace = spawn(
    'strace',
    ['-f', '-y', '-s', '24', '-e', 'trace=fsync,fdatasync,write,writev', '-o', traceFile, '-p', String(pid)],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let straceErr = '';
  if (process.env.BENCH_DEBUG) console.log(`trace in ${traceFile}`);
  strace.stderr.on('data', (chunk) => {
    straceErr += chunk;
  });
  await new Promise((resolve) => setTimeout(resolve, 1000)); // attached
  let created = 0;
  for (let i = 0; i < SIGNUPS; i++) {
    const answer = await register(i);
    await answer.arrayBuffer();
    if (answer.status === 201) created += 1;
    else throw new Error(`sign-up ${i} answered ${answer.status}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  strace.kill('SIGINT');
  await new Promise((resolve) => strace.once('exit', resolve));

  let synced = false;
  let preceded = 0;
  let answers = 0;
  let fsyncs = 0;
  for (const line of (await readFile(traceFile, 'utf8')).split('\n')) {
    if (/\b(fsync|fdatasync)\(\d+<[^>]*\.sqlite(-wal)?>\) = 0/.test(line)) {
      synced = true;
      fsyncs += 1;
    } else if (/writev?\(\d+<(TCP|socket)[^>]*>, (\[\{iov_base=)?"HTTP\/1\.1 201/.test(line)) {
      answers += 1;
      if (synced) preceded += 1;
      synced = false;
    }
  }
  console.log(
    `${created} sign-ups answered 201; strace saw ${answers} answers "HTTP/1.1 201" and ${fsyncs} fsync/fdatasync of the database or its WAL`,
  );
  console.log(
    `201 answers preceded by an fsync of the database or its WAL since the previous answer: ${preceded} of ${answers}`,
  );
  if (answers !== created || preceded !== answers) {
    console.log(`FAIL${straceErr ? ` (strace: ${straceErr.trim()})` : ''}`);
    process.exitCode = 1;
  }

  // Throughput, untraced: 8 sign-ups in flight at a time (each hashes a password with argon2id).
  const started = performance.now();
  let next = SIGNUPS;
  const last = SIGNUPS + THROUGHPUT;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < last) {
        const answer = await register(next++);
        await answer.arrayBuffer();
        if (answer.status !== 201) throw new Error(`sign-up answered ${answer.status}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `sign-up throughput: ${THROUGHPUT} sign-ups in ${seconds.toFixed(1)} s = ${(THROUGHPUT / seconds).toFixed(1)} per second (8 at a time)`,
  );
} finally {
  await product.stop();
  if (!process.env.BENCH_DEBUG) await rm(dataDir, { recursive: true, force: true });
}
