// Start time and resident memory of `npm start` as people run it (bench/support/product.ts: node
// scripts/start.mjs, default settings, its own process group), with the web client and the
// server already built (a first build is done before the runs, and not timed):
//   start:  from spawning `node scripts/start.mjs` to the first answer of GET /api/health
//           (asked every 10 ms);
//   memory: resident memory (VmRSS, from /proc) of the supervisor and of each server process
//           (the supervisor's children), right after that first answer and again after a few
//           seconds of idling and one load of the landing page, slides and sign-in page.
// An empty site by default (a fresh DATA_DIR per run); `--data-dir DIR` starts on a copy of your
// own folder instead (e.g. one seeded with 1,000,000 users: the product writes to it, so pass a
// copy). `--workers 1,2` runs each with WORKERS=N in the environment (one run per number).
// Usage: npx tsx bench/start-memory.bench.ts [--runs 5] [--data-dir DIR] [--workers 1,2]
// Targets (empty site): first answer < 1 s, each server process < 90 MB.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Product, residentMb, startProduct } from './support/product';

const START_TARGET_MS = 1000;
const WORKER_TARGET_MB = 90;
const ROOT = path.resolve(import.meta.dirname, '..');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'data-dir': { type: 'string' },
    workers: { type: 'string' },
  },
});
const runs = Number(values.runs);
const workerCounts = values.workers ? values.workers.split(',').map(Number) : [undefined];
const givenDataDir = values['data-dir'] ? path.resolve(values['data-dir']) : undefined;

interface Sample {
  startMs: number;
  supervisorMb: number;
  workersMb: number[];
  idleSupervisorMb: number;
  idleWorkersMb: number[];
}

// Builds what npm start would build, so that no run pays for it.
for (const script of ['scripts/build-if-stale.mjs', 'scripts/build-server.mjs']) {
  const result = spawnSync(process.execPath, [script], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${script} failed`);
}
console.log(
  `${givenDataDir ? `DATA_DIR ${givenDataDir}` : 'empty site (fresh DATA_DIR each run)'}; ${runs} runs per setting; load average ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`,
);

let failed = false;
for (const workers of workerCounts) {
  const samples: Sample[] = [];
  for (let run = 0; run < runs; run++) samples.push(await measure(workers));
  const label = workers === undefined ? 'default workers' : `WORKERS=${workers}`;
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const mb = (n: number) => `${n.toFixed(1)} MB`;
  const startMs = median(samples.map((s) => s.startMs));
  const perWorker = median(samples.map((s) => Math.max(...s.workersMb)));
  const idleWorker = median(samples.map((s) => Math.max(...s.idleWorkersMb)));
  console.log(`\n${label}`);
  for (const [i, s] of samples.entries())
    console.log(
      `  run ${i + 1}: first answer ${Math.round(s.startMs)} ms; supervisor ${mb(s.supervisorMb)}, server processes ${s.workersMb.map(mb).join(' + ')}; after idling and a page load: supervisor ${mb(s.idleSupervisorMb)}, server ${s.idleWorkersMb.map(mb).join(' + ')}`,
    );
  console.log(
    `  median: first answer ${Math.round(startMs)} ms (target < ${START_TARGET_MS} ms for an empty site); largest server process ${mb(perWorker)} at start, ${mb(idleWorker)} after a page load (target < ${WORKER_TARGET_MB} MB for an empty site); supervisor ${mb(median(samples.map((s) => s.supervisorMb)))}`,
  );
  if (!givenDataDir && (startMs >= START_TARGET_MS || perWorker >= WORKER_TARGET_MB)) failed = true;
}
process.exitCode = failed ? 1 : 0;

async function measure(workers: number | undefined): Promise<Sample> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-start-'));
  let product: Product | undefined;
  try {
    product = await startProduct({
      dataDir: givenDataDir ?? path.join(work, 'data'),
      logFile: path.join(work, 'product.log'),
      env: workers === undefined ? {} : { WORKERS: String(workers) },
      pollMs: 10,
    });
    const startMs = product.startedInMs;
    const memory = async () => ({
      supervisor: await residentMb(product!.supervisorPid),
      workers: await Promise.all((await product!.workerPids()).map(residentMb)),
    });
    const atStart = await memory();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    for (const page of ['/', '/api/slider/public', '/login'])
      await (await fetch(product.url + page)).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = await memory();
    return {
      startMs,
      supervisorMb: atStart.supervisor,
      workersMb: atStart.workers,
      idleSupervisorMb: idle.supervisor,
      idleWorkersMb: idle.workers,
    };
  } finally {
    await product?.stop();
    await rm(work, { recursive: true, force: true });
  }
}
