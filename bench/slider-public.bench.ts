// GET /api/slider/public is fetched on every page load, focus and tab switch of every visitor.
// This measures it as people run the product: `node scripts/start.mjs` in its own process with
// its own DATA_DIR and default settings (LOG_LEVEL unset, so `info`; logs go to a file as they
// would to a journal), next to a bare Fastify route serving the same body from another process.
// autocannon sends what the slideshow's fetch sends (Accept and a browser's Accept-Encoding),
// 50 connections, alternating product and bare runs for a few rounds, and prints each run and
// the ratio of the means.
// Usage: npx tsx bench/slider-public.bench.ts [--seconds 10] [--rounds 3] [--identity]
//        (--identity: no Accept-Encoding, as a bare HTTP client)     target: ratio >= 0.5
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';

const TARGET_RATIO = 0.5;
const MEDIA_FILES = 50;
const CONNECTIONS = 50;
const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    identity: { type: 'boolean', default: false },
    bare: { type: 'string' },
  },
});

if (values.bare) await serveBare(values.bare);
else await measure(Number(values.seconds), Number(values.rounds), values.identity);

/** Child process: the bare route, Fastify with nothing added, answering the product's body. */
async function serveBare(bodyFile: string): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const body = await readFile(bodyFile, 'utf8');
  const bare = Fastify({ logger: false });
  bare.get('/bare', (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  process.send?.(await bare.listen({ port: 0, host: '127.0.0.1' }));
  process.on('disconnect', () => process.exit(0));
}

/** A library of 50 images and an active playlist of all of them, as after a real set-up. */
async function seed(dataDir: string): Promise<void> {
  const { openEmbeddedStore } = await import('../server/src/store/embedded-store');
  const { PlaylistsRepository } = await import('../server/src/features/playlists/playlists.repository');
  const { SliderConfigRepository } = await import('../server/src/features/slider/slider-config.repository');
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
  const sliderConfig = new SliderConfigRepository(store, dataDir);
  await sliderConfig.init();
  await sliderConfig.save({ ...(await sliderConfig.get()), activePlaylist: playlist._id });
  await store.close();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `npm start` as a person runs it: the supervisor script, default log level, its own data. */
async function startProduct(dataDir: string, logFile: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  for (const name of ['LOG_LEVEL', 'MONGODB_URI', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'NODE_ENV'])
    delete env[name];
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000; // the first start may build the client
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}; see ${logFile}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGTERM');
  throw new Error(`npm start did not answer within 120 s; see ${logFile}`);
}

async function startBare(bodyFile: string): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(import.meta.filename, ['--bare', bodyFile], { execArgv: ['--import', 'tsx'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve(String(m)));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { url: `${url}/bare`, child };
}

async function measure(seconds: number, rounds: number, identity: boolean): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-slider-'));
  const dataDir = path.join(work, 'data');
  const logFile = path.join(work, 'product.log');
  let product: { url: string; child: ChildProcess } | undefined;
  let bare: { url: string; child: ChildProcess } | undefined;
  try {
    await seed(dataDir);
    product = await startProduct(dataDir, logFile);
    const sample = await (await fetch(`${product.url}/api/slider/public`)).text();
    if (!sample.includes('background-49.jpg')) throw new Error('The active playlist is not being served');
    await writeFile(path.join(work, 'body.json'), sample);
    bare = await startBare(path.join(work, 'body.json'));

    // What the slideshow's fetch sends from a browser (the encoding list is Chromium's).
    const headers: Record<string, string> = { accept: 'application/json' };
    if (!identity) headers['accept-encoding'] = 'gzip, deflate, br, zstd';
    const load = async (url: string, duration: number) => {
      const result = await autocannon({ url, connections: CONNECTIONS, duration, headers });
      if (result.non2xx || result.errors)
        throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return result;
    };
    const productUrl = `${product.url}/api/slider/public`;
    await load(productUrl, 2); // warm-up: JIT, caches
    await load(bare.url, 2);

    const logBefore = (await readFile(logFile, 'utf8')).split('\n').length;
    const productRuns: number[] = [];
    const bareRuns: number[] = [];
    const line = (label: string, r: Result) =>
      `${label.padEnd(24)} ${String(Math.round(r.requests.average)).padStart(7)} req/s   p99 ${r.latency.p99} ms`;
    console.log(
      `${MEDIA_FILES} slides, ${sample.length} bytes of JSON, ${identity ? 'no Accept-Encoding' : 'Accept-Encoding: gzip, deflate, br, zstd'}; ` +
        `${CONNECTIONS} connections, ${seconds} s per run, ${rounds} rounds`,
    );
    for (let round = 1; round <= rounds; round++) {
      // Alternate which goes first, so that neither always gets the quieter moment.
      const order = round % 2 ? (['product', 'bare'] as const) : (['bare', 'product'] as const);
      for (const which of order) {
        const result = await load(which === 'product' ? productUrl : bare.url, seconds);
        (which === 'product' ? productRuns : bareRuns).push(result.requests.average);
        console.log(line(`round ${round} ${which === 'product' ? 'npm start' : 'bare Fastify'}`, result));
      }
      console.log(`round ${round} ratio ${(productRuns[round - 1]! / bareRuns[round - 1]!).toFixed(2)}`);
    }
    const logged = (await readFile(logFile, 'utf8')).split('\n').length - logBefore;
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
    const ratio = mean(productRuns) / mean(bareRuns);
    console.log(
      `GET /api/slider/public (npm start): ${Math.round(mean(productRuns))} req/s; bare Fastify: ${Math.round(mean(bareRuns))} req/s`,
    );
    console.log(`log lines written by the product during the runs: ${logged}`);
    console.log(`ratio: ${ratio.toFixed(2)} (target >= ${TARGET_RATIO})`);
    process.exitCode = ratio >= TARGET_RATIO ? 0 : 1;
  } finally {
    bare?.child.disconnect();
    if (product) {
      const exited = new Promise((resolve) => product!.child.once('exit', resolve));
      product.child.kill('SIGTERM');
      await exited;
    }
    await rm(work, { recursive: true, force: true });
  }
}
