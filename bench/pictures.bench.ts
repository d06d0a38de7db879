// Pictures that fit the screen, measured on the product as `npm start` runs it, in Debian's Chromium.
// A library of 4 camera photos (4000 × 3000 JPEG, >= 6 MB each) and a 6 MB 1080p video, made once
// in .tmp/bench-pictures/ (sharp and ffmpeg), uploaded through the API:
//   - the upload's answer time of each 6 MB photo (the copies of the previous ones being made
//     meanwhile); with --before DIR also on another checkout (the code before), fresh products
//     in alternating rounds
//   - time and peak resident memory of the server process to make the copies of the 4 photos
//     (copies deleted, then one scan: one server process makes them all, one at a time), then
//     the video's poster and its 1280 px H.264 copy for phones (the copies process and its ffmpeg)
//   - the home page's media bytes until the first slide shows and over the first 30 s: a phone
//     (390 × 844, DPR 3), a desktop (1920 × 1080), and the phone with reduced motion (video bytes)
//   - Lighthouse mobile performance on `/` with that library (3 runs, median), alternating with
//     this code on an empty library and, with --before, the code before on the same library
// Usage: npx tsx bench/pictures.bench.ts [--before DIR [--upload-rounds 2]] [--seconds 30] [--runs 3]
// Targets: phone < 1 MB until the first slide and < 2 MB over 30 s; no video bytes with reduced
// motion; Lighthouse performance >= 95.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { COPIES_FOLDER } from '../server/src/features/media/copies/layout';
import { cameraLibrary, megabytes } from './support/camera-media';
import { copiesReady, folderBytes, peakRss } from './support/copies-progress';
import { lighthousePerformance, type PerformanceRun } from './support/lighthouse-score';
import { type HomeVisit, visitHome } from './support/page-media-bytes';
import { type Product, signIn, startProduct } from './support/product';

const ROOT = path.resolve(import.meta.dirname, '..');
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };
const KB = 1024;
const MB = 1024 * 1024;
/** A phone's 4G: DevTools' "fast 4G" throughput, about what a phone gets from a good cell. */
const FOUR_G = { downloadMbps: 9, uploadMbps: 1.5, latencyMs: 60 };
const TARGETS = { phoneFirstSlide: 1 * MB, phone30s: 2 * MB, lighthouse: 95 };

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    seconds: { type: 'string', default: '30' },
    runs: { type: 'string', default: '3' },
    'upload-rounds': { type: 'string', default: '2' },
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
  }).catch(async (error: Error) => {
    console.error(await readFile(path.join(work, 'product.log'), 'utf8').catch(() => ''));
    await rm(work, { recursive: true, force: true });
    throw error;
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

const fmt = (bytes: number) => (bytes < MB ? `${(bytes / KB).toFixed(0)} KB` : megabytes(bytes));
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const photoPaths = library.photos.map((file) => `image/${path.basename(file)}`);
const videoPath = `video/${path.basename(library.video)}`;
let failed = false;

/** The 4 uploads on a fresh product started from `root` (this checkout by default); their answer times. */
async function uploadRound(root?: string): Promise<number[]> {
  const { product, token, work } = await start(root);
  try {
    return await uploadPhotos(product, token);
  } finally {
    await product.stop();
    await rm(work, { recursive: true, force: true });
  }
}

if (values.before) {
  // Alternating, so that both meet the same moments of a shared machine.
  const before: number[] = [];
  const after: number[] = [];
  for (let round = 0; round < Number(values['upload-rounds']); round++) {
    before.push(...(await uploadRound(path.resolve(values.before))));
    after.push(...(await uploadRound()));
  }
  const list = (times: number[]) =>
    `${times.map((t) => t.toFixed(0)).join(', ')} ms (median ${median(times).toFixed(0)} ms)`;
  console.log(`\nUpload answer of a 6 MB photo, code in ${values.before}: ${list(before)}`);
  console.log(
    `Upload answer of a 6 MB photo, this code:${' '.repeat(Math.max(0, values.before.length - 7))} ${list(after)}`,
  );
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
  const video = await peakRss(product, () => copiesReady(base, [videoPath]));
  const each = rebuild.peak.map((peak, i) => `${rebuild.before[i]!.toFixed(0)} → ${peak.toFixed(0)} MB`);
  console.log(
    `Copies of the 4 photos from a scan: ${(rebuild.ms / 1000).toFixed(1)} s; RSS of the server processes ${each.join(', ')} (before → peak); the copies process peaked at ${rebuild.child().toFixed(0)} MB`,
  );
  console.log(
    `The video's poster and copy for phones, after them: ${(video.ms / 1000).toFixed(1)} s more; the copies process with its ffmpeg peaked at ${video.child().toFixed(0)} MB`,
  );
  const copyBytes = await folderBytes(path.join(base, COPIES_FOLDER, 'image'));
  const videoFolder = path.join(base, COPIES_FOLDER, 'video');
  const videoCopyBytes = await folderBytes(videoFolder, '.mp4');
  const posterBytes = (await folderBytes(videoFolder)) - videoCopyBytes;
  console.log(
    `Disk: copies of the 4 photos ${fmt(copyBytes)} beside ${fmt(originalsBytes)} of originals; the video's poster copies ${fmt(posterBytes)}, its copy for phones ${fmt(videoCopyBytes)} beside ${fmt((await stat(library.video)).size)}`,
  );

  // Measured beside, at the same moments of a shared machine: this code on an empty library (the
  // machine's own Lighthouse score for the page) and, with --before, the code before on this library.
  const others: Array<{ name: string; started: Awaited<ReturnType<typeof start>> }> = [];
  const runs: Record<string, PerformanceRun[]> = { 'this code, this library': [] };
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    others.push({ name: 'this code, empty library', started: await start() });
    if (values.before) {
      const before = await start(path.resolve(values.before));
      await uploadPhotos(before.product, before.token);
      await upload(before.product, before.token, library.video, 'video');
      others.push({ name: 'code before, this library', started: before });
    }
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
      // For information: the loopback hands over what Chromium asks for faster than it can stop asking.
      ['phone on 4G (9 Mbit/s, 60 ms)', await visitHome(browser, product.url, phone, seconds, FOUR_G)],
    ];
    const before = others.find((o) => o.name === 'code before, this library');
    if (before)
      visits.push([
        'phone, code before',
        await visitHome(browser, before.started.product.url, phone, seconds),
      ]);
    console.log(`\nHome page media bytes (first slide | first ${seconds} s: copies, originals, video)`);
    for (const [name, visit] of visits) {
      const first = visit.firstSlideMs === null ? 'none' : `${(visit.firstSlideMs / 1000).toFixed(1)} s`;
      const o = visit.overall;
      console.log(
        `  ${name.padEnd(30)} ${fmt(visit.untilFirstSlide.total).padStart(8)} by the first slide (${first}) | ${fmt(o.total).padStart(8)}: ${fmt(o.copies)}, ${fmt(o.originals)}, ${fmt(o.video)}`,
      );
      for (const r of visit.requests)
        console.log(
          `      ${fmt(r.bytes).padStart(8)}  ${r.path} (asked at ${(r.atMs / 1000).toFixed(1)} s)`,
        );
    }
    const [[, phoneVisit], , [, stillVisit]] = visits as [[string, HomeVisit], unknown, [string, HomeVisit]];
    failed ||=
      phoneVisit.untilFirstSlide.total >= TARGETS.phoneFirstSlide ||
      phoneVisit.overall.total >= TARGETS.phone30s;
    failed ||= stillVisit.overall.video > 0 || phoneVisit.overall.originals > 0;

    for (const { name } of others) runs[name] = [];
    for (let i = 1; i <= Number(values.runs); i++) {
      runs['this code, this library']!.push(
        (await lighthousePerformance(`${product.url}/`, 1, `pictures-home-${i}`)).median,
      );
      for (const [n, { name, started }] of others.entries()) {
        const run = await lighthousePerformance(`${started.product.url}/`, 1, `pictures-${n}-home-${i}`);
        runs[name]!.push(run.median);
      }
    }
  } finally {
    await browser.close();
    for (const { started } of others) {
      await started.product.stop();
      await rm(started.work, { recursive: true, force: true });
    }
  }
  console.log('\nLighthouse mobile on / (median of the runs; the runs alternate):');
  for (const [name, list] of Object.entries(runs)) {
    const m = [...list].sort((x, y) => x.performance - y.performance)[Math.floor(list.length / 2)]!;
    console.log(
      `  ${name.padEnd(42)} performance ${m.performance} (runs ${list.map((r) => `${r.performance} @cpu ${r.benchmarkIndex.toFixed(0)}`).join(', ')}); FCP ${(m.fcpMs / 1000).toFixed(1)} s, LCP ${(m.lcpMs / 1000).toFixed(1)} s, TBT ${m.tbtMs.toFixed(0)} ms, CLS ${m.cls.toFixed(3)}`,
    );
  }
  const ours = runs['this code, this library']!;
  const m = [...ours].sort((x, y) => x.performance - y.performance)[Math.floor(ours.length / 2)]!;
  failed ||= m.performance < TARGETS.lighthouse;
  console.log(
    `\ntargets: phone < ${fmt(TARGETS.phoneFirstSlide)} by the first slide and < ${fmt(TARGETS.phone30s)} over ${seconds} s, no original, no video with reduced motion, Lighthouse >= ${TARGETS.lighthouse}: ${failed ? 'NOT MET' : 'met'}`,
  );
  process.exitCode = failed ? 1 : 0;
} finally {
  await product.stop();
  await rm(work, { recursive: true, force: true });
}
