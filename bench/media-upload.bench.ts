// A 200 MB upload through the real app: peak memory growth of the server process and throughput,
// next to how fast the same disk takes a plain 200 MB write.
//   server: buildApp on a throw-away DATA_DIR, listening on 127.0.0.1, in this process
//   client: a child process streaming a generated multipart body (never 200 MB in memory)
// Usage: npx tsx bench/media-upload.bench.ts      Target: memory growth < 64 MB
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { MAX_UPLOAD_BYTES } from '@common/constants';
import { mp4Head, streamingUpload } from '../server/src/features/media/media-test-fixtures';
import { createTestApp, createUser } from '../server/src/test/test-app';

const SIZE = MAX_UPLOAD_BYTES;
const MB = 1024 * 1024;
const TARGET_GROWTH_MB = 64;
const RUNS = 3;

/** Client mode: stream one upload to the server and print its answer. */
async function runClient(
  url: string,
  token: string,
  basePath: string,
  name: string,
  size: number,
): Promise<void> {
  const form = streamingUpload({ mediaType: 'video', basePath }, { name, head: mp4Head(), size });
  const started = performance.now();
  const answer = await new Promise<string>((resolve, reject) => {
    const req = request(`${url}/api/media/upload`, {
      method: 'POST',
      headers: { ...form.headers, 'content-length': form.length, authorization: `Bearer ${token}` },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve(`${res.statusCode} ${body}`));
    });
    req.on('error', reject);
    pipeline(form.body, req).catch(reject);
  });
  // Timed here, not by the parent, so that starting this process is not counted.
  process.stdout.write(JSON.stringify({ answer, seconds: (performance.now() - started) / 1000 }));
}

function upload(
  url: string,
  token: string,
  basePath: string,
  name: string,
  size = SIZE,
): Promise<{ answer: string; seconds: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--client', url, token, basePath, name, String(size)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve, reject) =>
    // 'close', not 'exit': by then everything the child printed has been read.
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`client exited ${code}`)),
    ),
  );
}

async function runBench(): Promise<void> {
  const t = await createTestApp();
  try {
    const { token } = await createUser(t, { role: 'admin' });
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const basePath = path.join(t.dataDir, 'media');

    // Warm-up with a small file: loads the upload code paths, so what is measured is the streaming.
    await upload(url, token, basePath, 'warm-up.mp4', MB);
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed + before.external;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed + now.external);
    }, 20);
    // The machine is shared: the best of a few runs is the fairest figure for speed.
    const uploadTimes: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let run = 0; run < RUNS; run++) {
      const { answer, seconds } = await upload(url, token, basePath, 'big.mp4');
      if (!answer.startsWith('200 ')) throw new Error(`upload answered ${answer}`);
      const stored = await stat(path.join(basePath, 'video', 'big.mp4'));
      if (stored.size !== SIZE) throw new Error(`stored ${stored.size} bytes, expected ${SIZE}`);
      await rm(path.join(basePath, 'video'), { recursive: true, force: true });
      uploadTimes.push(seconds);
    }
    clearInterval(sampler);
    const cpu = process.cpuUsage(cpuBefore);
    const cpuPerUpload = (cpu.user + cpu.system) / 1e6 / RUNS;

    const diskTimes: number[] = [];
    const chunk = Buffer.alloc(MB, 0x2e);
    const target = path.join(t.dataDir, 'disk-test.bin');
    for (let run = 0; run < RUNS; run++) {
      const diskStarted = performance.now();
      await pipeline(
        (function* () {
          for (let written = 0; written < SIZE; written += MB)
            yield chunk.subarray(0, Math.min(MB, SIZE - written));
        })(),
        // Flushed like the upload's file, so both figures include getting the bytes onto the disk.
        createWriteStream(target, { flush: true }),
      );
      diskTimes.push((performance.now() - diskStarted) / 1000);
      await rm(target, { force: true });
    }
    const seconds = Math.min(...uploadTimes);
    const diskSeconds = Math.min(...diskTimes);

    const growth = (peakRss - before.rss) / MB;
    // Server CPU well below the wall time means the server waits on the sender, not the reverse.
    console.log(
      `upload:     ${(SIZE / MB).toFixed(0)} MB (best of ${RUNS}) in ${seconds.toFixed(2)} s = ${(SIZE / MB / seconds).toFixed(0)} MB/s`,
    );
    console.log(
      `disk write: ${(SIZE / MB).toFixed(0)} MB (best of ${RUNS}) in ${diskSeconds.toFixed(2)} s = ${(SIZE / MB / diskSeconds).toFixed(0)} MB/s`,
    );
    console.log(`server CPU: ${cpuPerUpload.toFixed(2)} s per 200 MB upload (user + system)`);
    console.log(
      `memory:     peak RSS growth ${growth.toFixed(1)} MB, peak heap+external growth ${((peakHeap - before.heapUsed - before.external) / MB).toFixed(1)} MB (target < ${TARGET_GROWTH_MB} MB)`,
    );
    if (growth >= TARGET_GROWTH_MB) {
      console.error(`FAIL: memory grew by ${growth.toFixed(1)} MB`);
      process.exitCode = 1;
    }
  } finally {
    await t.close();
  }
}

const [, , mode, ...args] = process.argv;
if (mode === '--client') await runClient(args[0]!, args[1]!, args[2]!, args[3]!, Number(args[4]));
else await runBench();
