// Pictures that fit the screen, measured on the product as `npm start` runs it, in Debian's Chromium.
// A library of 4 camera photos (4000 × 3000 JPEG, >= 6 MB each) and a 6 MB 1080p video, made once
// in .tmp/bench-pictures/ (sharp and ffmpeg), uploaded through the API:
//   - the upload's answer time of each 6 MB photo (the copies of the previous ones being made
//     meanwhile), and with --before DIR the same uploads to another checkout (the code before)
//   - time and peak resident memory of the server process to make the copies of the 4 photos
//     (copies deleted, then one scan: one server process makes them all, one at a time)
//   - the home page's media bytes until the first slide shows and over the first 30 s: a phone
//     (390 × 844, DPR 3), a desktop (1920 × 1080), and the phone with reduced motion (video bytes)
//   - Lighthouse mobile performance on `/` with that library (3 runs, median)
// Usage: npx tsx bench/pictures.bench.ts [--before DIR] [--seconds 30] [--runs 3]
// Targets: phone < 1 MB until the first slide and < 2 MB over 30 s; no video bytes with reduced
// motion; Lighthouse performance >= 95.
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { parseMediaPath } from '../server/src/features/media/media-library';
import { COPIES_FOLDER, readCopies } from '../server/src/features/media/picture-copies';
import { cameraLibrary, megabytes } from './support/camera-media';
import { lighthousePerformance } from './support/lighthouse-score';
import { type HomeVisit, visitHome } from './support/page-media-bytes';
import { childPids, type Product, residentMb, signIn, startProduct } from './support/product';

const ROOT = path.resolve(import.meta.dirname, '..');
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };
const KB = 1024;
const MB = 1024 * 1024;
const TARGETS = { phoneFirstSlide: 1 * MB, phone30s: 2 * MB, lighthouse: 95 };

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    seconds: { type: 'string', default: '30' },
    runs: { type: 'string', default: '3' },
  },
});
const seconds = Number(values.seconds);
const library = await cameraLibrary(path.join(ROOT, '.tmp', 'bench-pictures'));
const originalsBytes = (await Promise.all(library.photos.map((file) => stat(file)))).reduce(
  (a, b) => a + b.size,
  0,
);
console.log(
  `Library: 4 photos 4000 × 3000, ${megabytes(originalsBytes)} in all; video ${megabytes((await stat(library.video)).size)}`,
);

/** Uploads one file as the console does, and answers how long the server took to answer. */
async function upload(
  product: Product,
  token: string,
  file: string,
  mediaType: 'image' | 'video',
): Promise<number> {
  const form = new FormData();
  form.append('mediaType', mediaType);
  form.append('basePath', path.join(dataDirOf(product), 'media'));
  form.append('files', new Blob([await readFile(file)]), path.basename(file));
  const started = performance.now();
  const response = await fetch(`${product.url}/api/media/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const ms = performance.now() - started;
  if (!response.ok)
    throw new Error(`upload of ${file} answered ${response.status}: ${await response.text()}`);
  return ms;
}

const dataDirs = new Map<Product, string>();
const dataDirOf = (product: Product) => dataDirs.get(product)!;

async function start(root?: string): Promise<{ product: Product; token: string; work: string }> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-pictures-'));
  const product = await startProduct({
    dataDir: path.join(work, 'data'),
    logFile: path.join(work, 'product.log'),
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    root,
  });
  dataDirs.set(product, path.join(work, 'data'));
  return { product, token: await signIn(product.url, ADMIN), work };
}

/** Answer times of the 4 photo uploads, one after the other (a small one first, to warm up). */
async function uploadPhotos(product: Product, token: string): Promise<number[]> {
  const times: number[] = [];
  await upload(product, token, path.join(ROOT, 'client/public/favicon.svg'), 'image');
  const removed = await fetch(`${product.url}/api/media/delete`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ basePath: path.join(dataDirOf(product), 'media'), paths: ['image/favicon.svg'] }),
  });
  if (!removed.ok) throw new Error(`the warm-up file could not be deleted: ${removed.status}`);
  for (const photo of library.photos) times.push(await upload(product, token, photo, 'image'));
  return times;
}

/** Waits until every photo (and the video) has its copies; answers the ms waited. */
async function copiesReady(base: string, names: string[]): Promise<number> {
  const started = performance.now();
  for (;;) {
    const manifests = await Promise.all(names.map((name) => readCopies(base, parseMediaPath(name)!)));
    if (manifests.every(Boolean)) return performance.now() - started;
    if (performance.now() - started > 300_000) throw new Error('the copies were not made within 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Peak resident memory, while `work` runs, of each server process and of the process that makes
 * the copies (a child of one of them, living while there is work).
 */
async function peakRss(product: Product, work: () => Promise<number>) {
  const pids = await product.workerPids();
  const before = await Promise.all(pids.map(residentMb));
  const peak = [...before];
  let child = 0;
  const timer = setInterval(() => {
    pids.forEach((pid, i) => void residentMb(pid).then((mb) => (peak[i] = Math.max(peak[i]!, mb))));
    void Promise.all(pids.map(childPids)).then(async (lists) => {
      for (const pid of lists.flat()) child = Math.max(child, await residentMb(pid));
    });
  }, 20);
  try {
    const ms = await work();
    return { ms, before, peak, child: () => child };
  } finally {
    clearInterval(timer);
  }
}

const fmt = (bytes: number) => (bytes < MB ? `${(bytes / KB).toFixed(0)} KB` : megabytes(bytes));
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const photoPaths = library.photos.map((file) => `image/${path.basename(file)}`);
const videoPath = `video/${path.basename(library.video)}`;
let failed = false;

if (values.before) {
  const { product, token, work } = await start(path.resolve(values.before));
  try {
    const times = await uploadPhotos(product, token);
    console.log(
      `\nUpload answer, code in ${values.before}: ${times.map((t) => `${t.toFixed(0)} ms`).join(', ')} (median ${median(times).toFixed(0)} ms)`,
    );
  } finally {
    await product.stop();
    await rm(work, { recursive: true, force: true });
  }
}

const { product, token, work } = await start();
try {
  const base = path.join(dataDirOf(product), 'media');
  const times = await uploadPhotos(product, token);
  console.log(
    `\nUpload answer, this code: ${times.map((t) => `${t.toFixed(0)} ms`).join(', ')} (median ${median(times).toFixed(0)} ms)`,
  );
  await upload(product, token, library.video, 'video');
  const afterUploads = await copiesReady(base, [...photoPaths, videoPath]);
  console.log(`Copies of all 5 ready ${(afterUploads / 1000).toFixed(1)} s after the last upload answered`);

  // The clean figure: no copies, one scan, one server process makes them all.
  await rm(path.join(base, COPIES_FOLDER), { recursive: true, force: true });
  const rebuild = await peakRss(product, async () => {
    const started = performance.now();
    const scan = await fetch(`${product.url}/api/media/scan-files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    if (!scan.ok) throw new Error(`scan answered ${scan.status}`);
    await copiesReady(base, photoPaths);
    return performance.now() - started;
  });
  await copiesReady(base, [videoPath]);
  const each = rebuild.peak.map((peak, i) => `${rebuild.before[i]!.toFixed(0)} → ${peak.toFixed(0)} MB`);
  console.log(
    `Copies of the 4 photos from a scan: ${(rebuild.ms / 1000).toFixed(1)} s; RSS of the server processes ${each.join(', ')} (before → peak); the copies process peaked at ${rebuild.child().toFixed(0)} MB`,
  );
  const copyBytes = await folderBytes(path.join(base, COPIES_FOLDER, 'image'));
  const posterBytes = await folderBytes(path.join(base, COPIES_FOLDER, 'video'));
  console.log(
    `Disk: copies of the 4 photos ${fmt(copyBytes)} beside ${fmt(originalsBytes)} of originals; the video's stills ${fmt(posterBytes)}`,
  );

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const phone = {
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
    };
    const visits: Array<[string, HomeVisit]> = [
      ['phone 390 × 844 @3', await visitHome(browser, product.url, phone, seconds)],
      [
        'desktop 1920 × 1080',
        await visitHome(browser, product.url, { viewport: { width: 1920, height: 1080 } }, seconds),
      ],
      [
        'phone, reduced motion',
        await visitHome(browser, product.url, { ...phone, reducedMotion: 'reduce' }, seconds),
      ],
    ];
    console.log(`\nHome page media bytes (first slide | first ${seconds} s: copies, originals, video)`);
    for (const [name, visit] of visits) {
      const first = visit.firstSlideMs === null ? 'none' : `${(visit.firstSlideMs / 1000).toFixed(1)} s`;
      const o = visit.overall;
      console.log(
        `  ${name.padEnd(24)} ${fmt(visit.untilFirstSlide.total).padStart(8)} by the first slide (${first}) | ${fmt(o.total).padStart(8)}: ${fmt(o.copies)}, ${fmt(o.originals)}, ${fmt(o.video)}`,
      );
      for (const r of visit.requests) console.log(`      ${fmt(r.bytes).padStart(8)}  ${r.path}`);
    }
    const [[, phoneVisit], , [, stillVisit]] = visits as [[string, HomeVisit], unknown, [string, HomeVisit]];
    failed ||=
      phoneVisit.untilFirstSlide.total >= TARGETS.phoneFirstSlide ||
      phoneVisit.overall.total >= TARGETS.phone30s;
    failed ||= stillVisit.overall.video > 0 || phoneVisit.overall.originals > 0;
  } finally {
    await browser.close();
  }

  const lighthouse = await lighthousePerformance(`${product.url}/`, Number(values.runs), 'pictures-home');
  const m = lighthouse.median;
  console.log(
    `\nLighthouse mobile, / with this library: performance ${m.performance} (runs ${lighthouse.scores.join(', ')}); FCP ${(m.fcpMs / 1000).toFixed(1)} s, LCP ${(m.lcpMs / 1000).toFixed(1)} s, TBT ${m.tbtMs.toFixed(0)} ms, CLS ${m.cls.toFixed(3)}; CPU benchmark ${m.benchmarkIndex.toFixed(0)}`,
  );
  failed ||= m.performance < TARGETS.lighthouse;
  console.log(
    `\ntargets: phone < ${fmt(TARGETS.phoneFirstSlide)} by the first slide and < ${fmt(TARGETS.phone30s)} over ${seconds} s, no original, no video with reduced motion, Lighthouse >= ${TARGETS.lighthouse}: ${failed ? 'NOT MET' : 'met'}`,
  );
  process.exitCode = failed ? 1 : 0;
} finally {
  await product.stop();
  await rm(work, { recursive: true, force: true });
}

async function folderBytes(folder: string): Promise<number> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries.filter((e) => e.isFile()).map((e) => stat(path.join(e.parentPath, e.name)).then((s) => s.size)),
  );
  return sizes.reduce((a, b) => a + b, 0);
}
