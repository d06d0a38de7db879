// A 200 MB upload through the real app: peak memory growth of the server process and throughput,
// next to how fast the same disk takes a plain 200 MB write.
//   server: `npm start` as people run it (default settings) on a throw-away DATA_DIR; its server
//           process is measured from outside, through /proc (resident memory, CPU time)
//   client: a child process streaming a generated multipart body (never 200 MB in memory)
// Usage: npx tsx bench/media-upload.bench.ts      Target: memory growth < 64 MB
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { MAX_UPLOAD_BYTES } from '@common/constants';
import { mp4Head, streamingUpload } from '../server/src/test/media-fixtures';
import { signIn, startProduct } from './support/product';

const SIZE = MAX_UPLOAD_BYTES;
const MB = 1024 * 1024;
const TARGET_GROWTH_MB = 64;
const RUNS = 3;
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };
/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Resident memory of a process, in bytes. */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

/** CPU time (user + system) a process has used, in seconds. */
async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

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
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-upload-'));
  const product = await startProduct({
    dataDir,
    logFile: path.join(dataDir, 'server.log'),
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
  });
  try {
    const url = product.url;
    const token = await signIn(url, ADMIN);
    const basePath = path.join(dataDir, 'media');
    const pid = await product.serverPid();

    // Warm-up with a small file: loads the upload code paths, so what is measured is the streaming.
    await upload(url, token, basePath, 'warm-up.mp4', MB);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const before = await rssOf(pid);
    let peakRss = before;
    const sampler = setInterval(() => {
      rssOf(pid).then(
        (rss) => {
          peakRss = Math.max(peakRss, rss);
        },
        () => {},
      );
    }, 20);
    // The machine is shared: the best of a few runs is the fairest figure for speed.
    const uploadTimes: number[] = [];
    const cpuBefore = await cpuSecondsOf(pid);
    for (let run = 0; run < RUNS; run++) {
      const { answer, seconds } = await upload(url, token, basePath, 'big.mp4');
      if (!answer.startsWith('200 ')) throw new Error(`upload answered ${answer}`);
      const stored = await stat(path.join(basePath, 'video', 'big.mp4'));
      if (stored.size !== SIZE) throw new Error(`stored ${stored.size} bytes, expected ${SIZE}`);
      await rm(path.join(basePath, 'video'), { recursive: true, force: true });
      uploadTimes.push(seconds);
    }
    clearInterval(sampler);
    const cpuPerUpload = ((await cpuSecondsOf(pid)) - cpuBefore) / RUNS;

    const diskTimes: number[] = [];
    const chunk = Buffer.alloc(MB, 0x2e);
    const target = path.join(dataDir, 'disk-test.bin');
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

    const growth = (peakRss - before) / MB;
    // Server CPU well below the wall time means the server waits on the sender, not the reverse.
    console.log(
      `upload:     ${(SIZE / MB).toFixed(0)} MB (best of ${RUNS}) in ${seconds.toFixed(2)} s = ${(SIZE / MB / seconds).toFixed(0)} MB/s`,
    );
    console.log(
      `disk write: ${(SIZE / MB).toFixed(0)} MB (best of ${RUNS}) in ${diskSeconds.toFixed(2)} s = ${(SIZE / MB / diskSeconds).toFixed(0)} MB/s`,
    );
    console.log(`server CPU: ${cpuPerUpload.toFixed(2)} s per 200 MB upload (user + system)`);
    console.log(
      `memory:     peak RSS growth of the server process ${growth.toFixed(1)} MB (target < ${TARGET_GROWTH_MB} MB)`,
    );
    if (growth >= TARGET_GROWTH_MB) {
      console.error(`FAIL: memory grew by ${growth.toFixed(1)} MB`);
      process.exitCode = 1;
    }
  } finally {
    await product.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const [, , mode, ...args] = process.argv;
if (mode === '--client') await runClient(args[0]!, args[1]!, args[2]!, args[3]!, Number(args[4]));
else await runBench();
