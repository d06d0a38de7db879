// GET /api/slider/public is fetched on every page load, focus and tab switch of every visitor.
// This drives it under load (autocannon, 10 connections, 5 s) next to a bare Fastify route that
// returns JSON of the same size, in the same run on the same machine, and prints both rates.
// The servers run in a child process so that the load generator does not share their event loop.
// Usage: npx tsx bench/slider-public.bench.ts [--seconds N]   (target: ratio >= 0.5)
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const TARGET_RATIO = 0.5;
const MEDIA_FILES = 50;
const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, serve: { type: 'boolean', default: false } },
});

if (values.serve) await serve();
else await measure(Number(values.seconds));

/** Child: the real app with a 50-file library and an active playlist, plus a bare Fastify app. */
async function serve(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const { buildApp } = await import('../server/src/app');
  const { loadConfig } = await import('../server/src/config');
  const { openEmbeddedStore } = await import('../server/src/store/embedded-store');
  const { PlaylistsRepository } = await import('../server/src/features/playlists/playlists.repository');
  const { SliderConfigRepository } = await import('../server/src/features/slider/slider-config.repository');

  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-slider-'));
  const names = Array.from(
    { length: MEDIA_FILES },
    (_, i) => `image/background-${String(i).padStart(2, '0')}.jpg`,
  );
  await mkdir(path.join(dataDir, 'media', 'image'), { recursive: true });
  await Promise.all(names.map((name) => writeFile(path.join(dataDir, 'media', name), 'x')));

  // The library and the active playlist are put in place before the app starts, as after a real set-up.
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
  const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), store });
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });

  const sample = (await app.inject({ method: 'GET', url: '/api/slider/public' })).body;
  if (!sample.includes('background-49.jpg')) throw new Error('The active playlist is not being served');
  const bare = Fastify({ logger: false });
  const bareBody = JSON.parse(sample);
  bare.get('/bare', async () => bareBody);
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  process.send?.({ appUrl, bareUrl, bytes: sample.length });
  process.on('disconnect', async () => {
    await Promise.all([app.close(), bare.close()]);
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

/** Parent: loads each route in turn and compares. */
async function measure(seconds: number): Promise<void> {
  const child = fork(import.meta.filename, ['--serve'], { execArgv: ['--import', 'tsx'] });
  const ready = await new Promise<{ appUrl: string; bareUrl: string; bytes: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { appUrl: string; bareUrl: string; bytes: number }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const load = async (url: string) => {
    await autocannon({ url, connections: 10, duration: 1 }); // warm-up
    const result = await autocannon({ url, connections: 10, duration: seconds });
    if (result.non2xx || result.errors)
      throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result;
  };
  try {
    const slider = await load(`${ready.appUrl}/api/slider/public`);
    const bare = await load(`${ready.bareUrl}/bare`);
    const ratio = slider.requests.average / bare.requests.average;
    console.log(`body: ${ready.bytes} bytes (${MEDIA_FILES} slides), 10 connections, ${seconds} s each`);
    console.log(
      `GET /api/slider/public: ${Math.round(slider.requests.average)} req/s (p99 ${slider.latency.p99} ms)`,
    );
    console.log(
      `bare Fastify route:     ${Math.round(bare.requests.average)} req/s (p99 ${bare.latency.p99} ms)`,
    );
    console.log(`ratio: ${ratio.toFixed(2)} (target >= ${TARGET_RATIO})`);
    process.exitCode = ratio >= TARGET_RATIO ? 0 : 1;
  } finally {
    child.disconnect();
  }
}
