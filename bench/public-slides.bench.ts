// GET /api/slider/public is fetched on every page load, focus and tab switch of every visitor.
// This measures it as people run the product: `node scripts/start.mjs` in its own process with
// its own DATA_DIR and default settings (LOG_LEVEL unset, so `info`; logs go to a file as they
// would to a journal), next to a bare Fastify route that sends exactly the body the product
// sends (the same bytes, compressed the same way), process for process: the product with
// WORKERS=N against N bare Fastify processes sharing one port through node:cluster (one plain
// process for N=1). autocannon, 50 connections, alternating product and bare runs for a few
// rounds, in three modes:
//   br:       the headers the slideshow's fetch sends from Chromium (Accept-Encoding: ... br ...)
//   identity: no Accept-Encoding, as a bare HTTP client (plain JSON both sides)
//   304:      a browser revalidating what it has (If-None-Match): an empty 304 both sides
// It prints each run, and the ratio of the means per worker count and mode. Target: >= 0.8 each.
// Beside the throughput, it reads from /proc the CPU time the product's processes (supervisor and
// workers) and the bare ones spent during each run, per answer: on a shared 2-core machine that
// figure moves much less than requests per second (the load generator shares the cores, and the
// machine's own speed drifts from one run to the next), so it says whether a gap is the product's.
// Usage: npx tsx bench/public-slides.bench.ts [--workers 1,2] [--seconds 10] [--rounds 3]
//          [--modes br,identity,304]
import { type ChildProcess, fork } from 'node:child_process';
import cluster from 'node:cluster';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import { childPids, type Product, startProduct } from './support/product';

const TARGET_RATIO = 0.8;
/** Linux's USER_HZ, the unit of utime and stime in /proc/<pid>/stat. */
const CLOCK_TICKS_PER_S = 100;
const MEDIA_FILES = 50;
const CONNECTIONS = 50;
const MODES: Record<string, Record<string, string>> = {
  br: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br, zstd' },
  identity: { accept: 'application/json' },
  // The ETag is filled in from the product's answer.
  304: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br, zstd', 'if-none-match': '' },
};
const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '1,2' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    modes: { type: 'string', default: 'br,identity,304' },
    bare: { type: 'string' },
    encoding: { type: 'string' },
    'not-modified': { type: 'boolean', default: false },
    port: { type: 'string' },
  },
});

if (values.bare) await serveBare(values.bare, values.encoding, values['not-modified']);
else
  await main(
    values.workers.split(',').map(Number),
    Number(values.seconds),
    Number(values.rounds),
    values.modes.split(','),
  );

/**
 * Child process: the bare route, Fastify with nothing added, sending the product's bytes. With
 * `--workers N` above 1 it is node:cluster's primary: N workers serve one port, which the
 * primary accepts and hands round, as the product's supervisor does.
 */
async function serveBare(bodyFile: string, encoding?: string, notModified = false): Promise<void> {
  const workers = Number(values.workers);
  if (cluster.isPrimary && workers > 1) {
    const { freePort } = await import('../server/src/test/free-port');
    const port = await freePort();
    cluster.setupPrimary({
      execArgv: ['--import', 'tsx'],
      args: [...process.argv.slice(2), '--port', String(port)],
    });
    const listening = Array.from({ length: workers }, () => {
      const worker = cluster.fork();
      return new Promise((resolve) => worker.once('listening', resolve));
    });
    await Promise.all(listening);
    process.send?.(`http://127.0.0.1:${port}`);
    process.on('disconnect', () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
      process.exit(0);
    });
    return;
  }
  const { default: Fastify } = await import('fastify');
  const body = await readFile(bodyFile);
  const bare = Fastify({ logger: false });
  bare.get('/bare', (_request, reply) => {
    if (notModified) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  });
  const url = await bare.listen({ port: Number(values.port ?? 0), host: '127.0.0.1' });
  if (cluster.isPrimary) {
    process.send?.(url);
    process.on('disconnect', () => process.exit(0));
  }
}

/** CPU seconds (user and system, all threads) a process and its children have used, from /proc. */
async function cpuSeconds(pid: number): Promise<number> {
  const own = async (id: number) => {
    const stat = await readFile(`/proc/${id}/stat`, 'utf8').catch(() => '');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / CLOCK_TICKS_PER_S;
  };
  const children = await childPids(pid);
  const all = await Promise.all([own(pid), ...children.map(own)]);
  return all.reduce((a, b) => a + b, 0);
}

/** A library of 50 images and an active playlist of all of them, as after a real set-up. */
async function seed(dataDir: string): Promise<void> {
  const { openEmbeddedStore } = await import('../server/src/store/sqlite/store');
  const { PlaylistsRepository } = await import('../server/src/features/playlists/playlists.repository');
  const { SlideshowSettingsRepository } = await import(
    '../server/src/features/slideshow/slideshow-settings.repository'
  );
  const { SharedChanges } = await import('../server/src/features/shared-state/shared-changes');
  const names = Array.from(
    { length: MEDIA_FILES },
    (_, i) => `image/background-${String(i).padStart(2, '0')}.jpg`,
  );
  await mkdir(path.join(dataDir, 'media', 'image'), { recursive: true });
  await Promise.all(names.map((name) => writeFile(path.join(dataDir, 'media', name), 'x')));
  const store = await openEmbeddedStore(dataDir);
  const items = names.map((name) => ({ type: 'image' as const, url: `/media/${name}` }));
  const playlist = await new PlaylistsRepository(store).create('Bench', {
    items,
    images: items.map((i) => i.url),
    videos: [],
  });
  const slideshowSettings = new SlideshowSettingsRepository(store, new SharedChanges(store));
  await slideshowSettings.init();
  await slideshowSettings.save({ ...(await slideshowSettings.get()), activePlaylist: playlist._id });
  await store.close();
}

/** The product's answer as bytes on the wire (fetch would decompress it). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: Buffer; encoding?: string; etag?: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const encoding = response.headers['content-encoding'];
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks),
          encoding: typeof encoding === 'string' ? encoding : undefined,
          etag: response.headers.etag,
        });
      });
    })
      .on('error', reject)
      .end();
  });
}

async function startBare(
  workers: number,
  bodyFile: string,
  encoding: string | undefined,
  notModified: boolean,
): Promise<{ url: string; child: ChildProcess }> {
  const args = [
    '--workers',
    String(workers),
    '--bare',
    bodyFile,
    ...(encoding ? ['--encoding', encoding] : []),
    ...(notModified ? ['--not-modified'] : []),
  ];
  const child = fork(import.meta.filename, args, { execArgv: ['--import', 'tsx'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve(String(m)));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { url: `${url}/bare`, child };
}

async function main(workerCounts: number[], seconds: number, rounds: number, modes: string[]): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-slider-'));
  const dataDir = path.join(work, 'data');
  const logFile = path.join(work, 'product.log');
  const ratios: Record<string, number> = {};
  const cpuRatios: Record<string, number> = {};
  console.log(
    `load average at the start: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`,
  );
  try {
    await seed(dataDir);
    for (const workers of workerCounts) {
      let product: Product | undefined;
      try {
        product = await startProduct({ dataDir, logFile, env: { WORKERS: String(workers) } });
        const productUrl = `${product.url}/api/slider/public`;
        const json = await (await fetch(productUrl)).text();
        if (!json.includes('background-49.jpg')) throw new Error('The active playlist is not being served');
        const running = (await product.workerPids()).length;
        console.log(
          `\n== WORKERS=${workers}: npm start runs ${running} server process${running === 1 ? '' : 'es'}, against ${workers} bare Fastify process${workers === 1 ? '' : 'es'}${workers > 1 ? ' (node:cluster)' : ''}. ${MEDIA_FILES} slides (${json.length} bytes of JSON); ${CONNECTIONS} connections, ${seconds} s per run, ${rounds} rounds per mode`,
        );
        for (const mode of modes) {
          const headers = { ...MODES[mode] };
          if (!MODES[mode]) throw new Error(`Unknown mode ${mode}; use ${Object.keys(MODES).join(', ')}`);
          if ('if-none-match' in headers)
            headers['if-none-match'] =
              (await rawGet(productUrl, { ...headers, 'if-none-match': '' })).etag ?? '';
          const what = `${workers} worker${workers === 1 ? '' : 's'} ${mode}`;
          [ratios[what], cpuRatios[what]] = await compare(
            workers,
            mode,
            headers,
            { url: productUrl, pid: product.supervisorPid },
            work,
            logFile,
            seconds,
            rounds,
          );
        }
      } finally {
        await product?.stop();
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  console.log(
    `\nload average at the end: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`,
  );
  for (const [what, ratio] of Object.entries(ratios))
    console.log(
      `ratio ${what.padEnd(20)} ${ratio.toFixed(2)} (target >= ${TARGET_RATIO})   CPU per answer, bare / npm start: ${cpuRatios[what]!.toFixed(2)}`,
    );
  process.exitCode = Object.values(ratios).every((ratio) => ratio >= TARGET_RATIO) ? 0 : 1;
}

/**
 * Alternating rounds of the product and the bare route sending the same bytes: the ratio of the
 * mean throughputs, and the ratio of CPU time per answer (bare over product, so that above 1 is
 * the product spending less).
 */
async function compare(
  workers: number,
  mode: string,
  headers: Record<string, string>,
  product: { url: string; pid: number },
  work: string,
  logFile: string,
  seconds: number,
  rounds: number,
): Promise<[throughput: number, cpu: number]> {
  const productUrl = product.url;
  const sample = await rawGet(productUrl, headers);
  const notModified = sample.status === 304;
  if ('if-none-match' in headers && !notModified) throw new Error(`expected a 304, got ${sample.status}`);
  const bodyFile = path.join(work, `body-${mode}`);
  await writeFile(bodyFile, sample.body);
  const bare = await startBare(workers, bodyFile, sample.encoding, notModified);
  try {
    const load = async (url: string, duration: number) => {
      const result = await autocannon({ url, connections: CONNECTIONS, duration, headers });
      const expected = notModified ? result['3xx'] : result['2xx'];
      if (result.errors || expected !== result.requests.total)
        throw new Error(
          `${url}: ${result.errors} errors, ${result.requests.total - expected} unexpected statuses`,
        );
      return result;
    };
    await load(productUrl, 2); // warm-up: JIT, caches
    await load(bare.url, 2);
    const what = notModified
      ? 'an empty 304'
      : `${sample.body.length} bytes (${sample.encoding ?? 'not compressed'})`;
    console.log(`\n${mode}: ${what} per answer`);
    const logBefore = (await readFile(logFile, 'utf8')).split('\n').length;
    const runs = { product: [] as number[], bare: [] as number[] };
    const cpu = { product: { seconds: 0, answers: 0 }, bare: { seconds: 0, answers: 0 } };
    const pids = { product: product.pid, bare: bare.child.pid! };
    const line = (label: string, r: Result, microseconds: number) =>
      `${label.padEnd(24)} ${String(Math.round(r.requests.average)).padStart(7)} req/s   p99 ${r.latency.p99} ms   CPU ${microseconds.toFixed(1)} µs per answer`;
    for (let round = 1; round <= rounds; round++) {
      // Alternate which goes first, so that neither always gets the quieter moment.
      const order = round % 2 ? (['product', 'bare'] as const) : (['bare', 'product'] as const);
      for (const which of order) {
        const before = await cpuSeconds(pids[which]);
        const result = await load(which === 'product' ? productUrl : bare.url, seconds);
        const used = (await cpuSeconds(pids[which])) - before;
        runs[which].push(result.requests.average);
        cpu[which].seconds += used;
        cpu[which].answers += result.requests.total;
        const label = `round ${round} ${which === 'product' ? 'npm start' : 'bare Fastify'}`;
        console.log(line(label, result, (used / result.requests.total) * 1e6));
      }
      console.log(`round ${round} ratio ${(runs.product[round - 1]! / runs.bare[round - 1]!).toFixed(2)}`);
    }
    const logged = (await readFile(logFile, 'utf8')).split('\n').length - logBefore;
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
    const ratio = mean(runs.product) / mean(runs.bare);
    const perAnswer = (which: 'product' | 'bare') => (cpu[which].seconds / cpu[which].answers) * 1e6;
    console.log(
      `${mode}: npm start ${Math.round(mean(runs.product))} req/s, bare Fastify ${Math.round(mean(runs.bare))} req/s, ratio ${ratio.toFixed(2)}; log lines written by the product: ${logged}`,
    );
    console.log(
      `${mode}: CPU per answer: npm start ${perAnswer('product').toFixed(1)} µs (supervisor and workers), bare Fastify ${perAnswer('bare').toFixed(1)} µs, bare/npm start ${(perAnswer('bare') / perAnswer('product')).toFixed(2)}`,
    );
    return [ratio, perAnswer('bare') / perAnswer('product')];
  } finally {
    bare.child.disconnect();
  }
}
