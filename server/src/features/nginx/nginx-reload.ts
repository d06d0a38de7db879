import { open, readFile, stat } from 'node:fs/promises';
import type { NginxBinary } from './nginx-binary';
import { nginxErrorLine } from './nginx-errors';
import { isNginxAlive, workerPids } from './nginx-process';

/** nginx retries a busy port five times, 500 ms apart, before it gives a reload up. */
const CONFIRM_TIMEOUT_MS = 10_000;
const POLL_MS = 100;
/** A failed bind is retried, so only the lines after it decide; anything else [emerg] is final. */
const FINAL_FAILURE = /\[(emerg|alert)\]/;
const RETRIED = /bind\(\) to .* failed/;

export type Outcome = { ok: true } | { ok: false; error: string };

async function sizeOf(file: string): Promise<number> {
  return stat(file).then(
    (s) => s.size,
    () => 0,
  );
}

async function readFrom(file: string, offset: number): Promise<string> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      if (size <= offset) return '';
      const buffer = Buffer.alloc(Math.min(size - offset, 256 * 1024));
      await handle.read(buffer, 0, buffer.length, offset);
      return buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}

/**
 * `nginx -s reload` only delivers a signal: the running master then loads the files, and when
 * that fails (a port taken, no right to bind) it says so in its error log and keeps the old
 * configuration. So the outcome is read back: new worker processes mean the reload took, an
 * [emerg] line in the log means it did not.
 */
export async function reloadAndConfirm(
  nginx: NginxBinary,
  binary: string,
  configArgs: string[],
  master: number,
  errorLog: string,
): Promise<Outcome> {
  const before = new Set(await workerPids(master));
  const offset = await sizeOf(errorLog);
  const sent = await nginx.reload(binary, configArgs);
  if (!sent.ok) return { ok: false, error: nginxErrorLine(sent.output) };

  const deadline = Date.now() + CONFIRM_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const lines = (await readFrom(errorLog, offset)).split('\n');
    if (lines.some((line) => FINAL_FAILURE.test(line) && !RETRIED.test(line))) {
      const first = lines.find((line) => FINAL_FAILURE.test(line)) ?? '';
      return { ok: false, error: nginxErrorLine(first) };
    }
    const workers = await workerPids(master);
    if (
      workers.some((pid) => !before.has(pid)) ||
      lines.some((line) => line.includes('start worker process'))
    ) {
      await oldWorkersStopAccepting([...before], errorLog, offset);
      return { ok: true };
    }
    if (!(await isNginxAlive(master))) return { ok: false, error: 'nginx stopped while reloading' };
  }
  return {
    ok: false,
    error: `nginx did not confirm the reload within ${CONFIRM_TIMEOUT_MS / 1000} s (see ${errorLog})`,
  };
}

/** Longest wait for the old workers to let go of the listening sockets. */
const HANDOVER_MS = 2000;

/**
 * New workers are up, but for a moment the old ones may still accept connections with the old
 * configuration. Each old worker logs "gracefully shutting down" and renames itself as it closes
 * its listening sockets (it keeps serving the connections it already has). Waiting for that
 * makes "saved" mean that new connections get the new configuration.
 */
async function oldWorkersStopAccepting(old: number[], errorLog: string, offset: number): Promise<void> {
  const deadline = Date.now() + HANDOVER_MS;
  let pending = old;
  while (pending.length > 0 && Date.now() < deadline) {
    const logged = await readFrom(errorLog, offset);
    const still: number[] = [];
    for (const pid of pending) {
      const title = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      const leaving =
        title.includes('shutting down') || logged.includes(`${pid}#${pid}: gracefully shutting down`);
      if (!leaving && (await isNginxAlive(pid))) still.push(pid);
    }
    pending = still;
    if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
