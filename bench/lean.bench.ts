// How lean a server process is, beside the code before (issue: "The server process as lean as it
// was"): `npm start` as people run it (bench/support/product.ts), client and server built first and
// not timed, default settings. For each checkout, in alternating rounds (this code, the code
// before, then the other way round):
//   empty site (a fresh DATA_DIR): start to the first answer of GET /api/health (asked every
//     10 ms), the largest server process's resident memory (VmRSS from /proc) at that answer, and
//     after `/`, the public slides and `/login` have been served once;
//   course pages (a copy of a folder with the demo courses, `npm run seed -- --courses`; the code
//     before has no courses and starts on an empty folder): resident memory at start and after the
//     course list and a course page (page and API), a lesson (page and API) and the payment page
//     (`/account`, the plans) have been served once.
// Usage: npx tsx bench/lean.bench.ts [--before DIR] [--runs 3]
//   DIR: another checkout, e.g. `git worktree add /tmp/before <commit>` with its own node_modules.
// Targets (empty site): first answer < 1 s, each server process < 90 MB.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { residentMb, startProduct } from './support/product';

const START_TARGET_MS = 1000;
const WORKER_TARGET_MB = 90;
const ROOT = path.resolve(import.meta.dirname, '..');

const { values } = parseArgs({
  options: { before: { type: 'string' }, runs: { type: 'string', default: '3' } },
});
const runs = Number(values.runs);
const work = await mkdtemp(path.join(tmpdir(), 'bench-lean-'));

interface Code {
  name: string;
  root: string;
  /** A folder with the demo courses, or null when the code has none. */
  courses: string | null;
  samples: Sample[];
}
interface Sample {
  startMs: number;
  emptyMb: number;
  emptyPagesMb: number;
  coursesStartMb: number;
  coursesPagesMb: number;
}

const codes: Code[] = [{ name: 'this code', root: ROOT, courses: null, samples: [] }];
if (values.before)
  codes.push({ name: 'code before', root: path.resolve(values.before), courses: null, samples: [] });

try {
  for (const code of codes) prepare(code);
  console.log(
    `${runs} alternating rounds; load average ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`,
  );
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? codes : [...codes].reverse();
    for (const code of order) {
      const sample = await measure(code, round);
      code.samples.push(sample);
      console.log(
        `  ${code.name}, round ${round + 1}: first answer ${Math.round(sample.startMs)} ms; empty site ${mb(sample.emptyMb)}, after its pages ${mb(sample.emptyPagesMb)}; with courses ${mb(sample.coursesStartMb)}, after a course, a lesson and the payment page ${mb(sample.coursesPagesMb)}`,
      );
    }
  }
  console.log(
    `\nMedians (largest server process; load average now ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')})`,
  );
  let failed = false;
  for (const code of codes) {
    const m = (pick: (s: Sample) => number) => median(code.samples.map(pick));
    console.log(
      `  ${code.name.padEnd(11)}: first answer ${Math.round(m((s) => s.startMs))} ms; empty site ${mb(m((s) => s.emptyMb))} at start, ${mb(m((s) => s.emptyPagesMb))} after its pages; ${mb(m((s) => s.coursesPagesMb))} after a course page, a lesson and the payment page`,
    );
    if (
      code.root === ROOT &&
      (m((s) => s.startMs) >= START_TARGET_MS || m((s) => s.emptyMb) >= WORKER_TARGET_MB)
    )
      failed = true;
  }
  console.log(
    `  targets (this code, empty site): first answer < ${START_TARGET_MS} ms, server process < ${WORKER_TARGET_MB} MB`,
  );
  process.exitCode = failed ? 1 : 0;
} finally {
  await rm(work, { recursive: true, force: true });
}

/** Builds what `npm start` would build, and a folder with the demo courses when the code has them. */
function prepare(code: Code): void {
  for (const script of ['scripts/build-if-stale.mjs', 'scripts/build-server.mjs']) {
    const result = spawnSync(process.execPath, [script], { cwd: code.root, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`${script} failed in ${code.root}`);
  }
  const seed = path.join(code.root, 'scripts/seed.ts');
  if (readFileSync(seed, 'utf8').includes('--courses')) {
    const folder = path.join(work, `${codes.indexOf(code)}-courses`);
    const result = spawnSync(process.execPath, ['--import', 'tsx', seed, '--courses'], {
      cwd: code.root,
      env: { ...process.env, DATA_DIR: folder, MONGODB_URI: '' },
      stdio: 'ignore',
    });
    if (result.status !== 0) throw new Error(`npm run seed -- --courses failed in ${code.root}`);
    code.courses = folder;
  }
}

async function measure(code: Code, round: number): Promise<Sample> {
  const empty = await started(code, path.join(work, `${codes.indexOf(code)}-${round}-empty`));
  let startMs: number;
  let emptyMb: number;
  let emptyPagesMb: number;
  try {
    startMs = empty.product.startedInMs;
    emptyMb = await largestServer(empty.product);
    await settle();
    for (const page of ['/', '/api/slider/public', '/login']) await get(empty.product.url + page);
    emptyPagesMb = await largestServer(empty.product);
  } finally {
    await empty.product.stop();
  }

  const dataDir = path.join(work, `${codes.indexOf(code)}-${round}-courses`);
  if (code.courses) await cp(code.courses, dataDir, { recursive: true });
  const withCourses = await started(code, dataDir);
  try {
    const { url } = withCourses.product;
    const coursesStartMb = await largestServer(withCourses.product);
    await settle();
    const cards = await getJson(`${url}/api/courses`);
    const slug = (cards?.data as Array<{ slug: string }> | undefined)?.[0]?.slug ?? 'none';
    const course = await getJson(`${url}/api/courses/${slug}`);
    const sections = (course?.data as { sections?: Array<{ lessons: Array<{ id: string }> }> } | undefined)
      ?.sections;
    const lessonId = sections?.[0]?.lessons[0]?.id ?? 'none';
    for (const page of [
      '/courses',
      `/courses/${slug}`,
      `/courses/${slug}/lessons/${lessonId}`,
      `/api/courses/${slug}/lessons/${lessonId}`,
      '/account',
      '/api/payments/plans',
    ])
      await get(url + page);
    return {
      startMs,
      emptyMb,
      emptyPagesMb,
      coursesStartMb,
      coursesPagesMb: await largestServer(withCourses.product),
    };
  } finally {
    await withCourses.product.stop();
  }
}

async function started(code: Code, dataDir: string) {
  const product = await startProduct({
    root: code.root,
    dataDir,
    logFile: `${dataDir}.log`,
    pollMs: 10,
  });
  return { product };
}

async function largestServer(product: { workerPids(): Promise<number[]> }): Promise<number> {
  return Math.max(...(await Promise.all((await product.workerPids()).map(residentMb))));
}

/** A moment for what a start leaves running (the second worker, timers) before the next figure. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 3000));
}

async function get(url: string): Promise<void> {
  await (await fetch(url)).arrayBuffer();
}

async function getJson(url: string): Promise<Record<string, unknown> | null> {
  const response = await fetch(url);
  if (response.ok) return (await response.json()) as Record<string, unknown>;
  await response.arrayBuffer();
  return null;
}

function median(list: number[]): number {
  return [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
}

function mb(n: number): string {
  return `${n.toFixed(1)} MB`;
}
