// The sitemap at scale: 100,000 lessons (200 public courses of 5 sections × 100 lessons, every one
// open to visitors, so every one is listed: the largest sitemap such a site has) seeded straight
// into the store, then `npm start` as people run it. For /sitemap.xml (the index, 3 files above
// 50,000 addresses) and each file of addresses: time to the first byte and to the last, and bytes,
// one request at a time (median of --runs), the server process's resident memory before and after
// (the files are streamed, never held whole); beside a plain node:http server sending the same
// 50,000-address file from the disk (bench/support/bare-file-server.mjs), the yardstick.
// Usage: npx tsx bench/sitemap.bench.ts [--lessons 100000] [--runs 5]
// Target: each file answered in < 5 s on the 2-core reference machine, the server process growing < 64 MB.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { demoCourseRows } from '../scripts/demo/courses';
import { CoursesRepository } from '../server/src/features/courses/courses.repository';
import { openEmbeddedStore } from '../server/src/store/sqlite/store';
import { residentMb, startProduct } from './support/product';

const TARGET_MS = 5000;
const TARGET_GROWTH_MB = 64;
const { values } = parseArgs({
  options: { lessons: { type: 'string', default: '100000' }, runs: { type: 'string', default: '5' } },
});
const LESSONS = Number(values.lessons);
const RUNS = Number(values.runs);
const PER_COURSE = 500;
const SITE = 'https://coach.example.com';

const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-sitemap-'));
const seeding = performance.now();
{
  const store = await openEmbeddedStore(dataDir, () => undefined);
  const repository = new CoursesRepository(store);
  await repository.init();
  const rows = demoCourseRows(Math.ceil(LESSONS / PER_COURSE), 5, PER_COURSE / 5);
  await repository.courses.insertMany(
    rows.courses.map((course) => ({ ...course, access: 'public' as const })),
  );
  await repository.sections.insertMany(rows.sections);
  for (let i = 0; i < rows.lessons.length; i += 5000)
    await repository.lessons.insertMany(rows.lessons.slice(i, i + 5000));
  await store.close();
  console.log(
    `seeded ${rows.courses.length} courses, ${rows.lessons.length} lessons in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
}

interface Timed {
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  body: string;
}

async function timed(url: string): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}`);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let firstByteMs = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!firstByteMs) firstByteMs = performance.now() - started;
    chunks.push(value);
  }
  const body = Buffer.concat(chunks);
  return { firstByteMs, totalMs: performance.now() - started, bytes: body.length, body: body.toString() };
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

const product = await startProduct({
  dataDir,
  logFile: path.join(dataDir, 'server.log'),
  env: { PUBLIC_URL: SITE },
});
let failed = false;
try {
  const serverPid = await product.serverPid();
  const before = await residentMb(serverPid);
  const index = await timed(`${product.url}/sitemap.xml`);
  const files = [...index.body.matchAll(/<loc>[^<]*\/sitemaps\/(\d+)\.xml<\/loc>/g)].map(
    (m) => `/sitemaps/${m[1]}.xml`,
  );
  const addresses: Record<string, number> = {};
  console.log(`\nthe first answer of /sitemap.xml (counting every address): ${index.totalMs.toFixed(0)} ms`);
  console.log(
    `\n${'answer'.padEnd(18)}${'first byte ms'.padStart(15)}${'total ms'.padStart(10)}${'bytes'.padStart(12)}${'addresses'.padStart(11)}`,
  );
  const largest = { path: '', body: '', totalMs: 0 };
  for (const pathname of ['/sitemap.xml', ...files]) {
    const runs: Timed[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timed(`${product.url}${pathname}`));
    const last = runs.at(-1)!;
    addresses[pathname] = (last.body.match(/<loc>/g) ?? []).length;
    const total = median(runs.map((r) => r.totalMs));
    if (total >= TARGET_MS) failed = true;
    if (last.bytes > largest.body.length)
      Object.assign(largest, { path: pathname, body: last.body, totalMs: total });
    console.log(
      `${pathname.padEnd(18)}${median(runs.map((r) => r.firstByteMs))
        .toFixed(1)
        .padStart(
          15,
        )}${total.toFixed(1).padStart(10)}${String(last.bytes).padStart(12)}${String(addresses[pathname]).padStart(11)}`,
    );
  }
  const after = await residentMb(serverPid);
  const listed = files.reduce((sum, file) => sum + (addresses[file] ?? 0), 0);
  console.log(`\naddresses in the files: ${listed} (lessons seeded: ${LESSONS})`);
  console.log(`server process resident memory: ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after`);
  if (after - before >= TARGET_GROWTH_MB) failed = true;

  // The yardstick: the same bytes of the largest file, from the disk, by the plainest server.
  const file = path.join(dataDir, 'largest.xml');
  await writeFile(file, largest.body);
  const bare = spawn(process.execPath, [
    path.join(import.meta.dirname, 'support/bare-file-server.mjs'),
    file,
  ]);
  try {
    const port = await new Promise<string>((resolve) =>
      bare.stdout.once('data', (data) => resolve(String(data).trim())),
    );
    const runs: Timed[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timed(`http://127.0.0.1:${port}/`));
    const bareMs = median(runs.map((r) => r.totalMs));
    console.log(
      `yardstick: the same ${largest.body.length} bytes of ${largest.path} from a plain node:http server: ${bareMs.toFixed(1)} ms (the product: ${largest.totalMs.toFixed(1)} ms, ${(largest.totalMs / bareMs).toFixed(1)}×)`,
    );
  } finally {
    bare.kill();
  }
  console.log(
    `load average: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `\n${failed ? 'FAIL' : 'PASS'}: each answer < ${TARGET_MS} ms, memory growth < ${TARGET_GROWTH_MB} MB`,
  );
} finally {
  await product.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
