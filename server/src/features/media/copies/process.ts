import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { MakeResult } from './maker';

export interface CopiesJob {
  id: number;
  base: string;
  path: string;
}

export type CopiesReply = ({ id: number } & MakeResult) | { id: number; error: string };
/** What the child sends: a job's reply, or word that a long job (a video's copies) advances. */
export type CopiesMessage = CopiesReply | { id: number; progress: true };

/** A batch of uploads arrives a few seconds apart: the process waits that long before leaving. */
const IDLE_EXIT_MS = 5000;
/**
 * Far beyond any picture (a 100-megapixel one takes seconds); a stuck decoder is stopped. A
 * video's copies take longer, but their job reports progress, and each report restarts the count.
 */
const JOB_TIMEOUT_MS = 120_000;

/**
 * Copies are made in a child process, not in the server: decoding a camera photo takes about a
 * hundred megabytes that the C allocator keeps once freed (a server process grew from 80 to 280
 * MB after four photos), and a decoder crashing on a hostile file must not take the server with
 * it. The child lives while there is work and exits 5 s after the last job, giving all of that
 * memory back; it runs at the lowest CPU priority, with one libvips thread and two allocator arenas.
 */
export class CopiesProcess {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { child: ChildProcess; resolve: (reply: CopiesReply) => void; timer: NodeJS.Timeout }
  >();
  private idleTimer: NodeJS.Timeout | undefined;

  /** The child's process id while it runs (for tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  make(base: string, relative: string): Promise<CopiesReply> {
    clearTimeout(this.idleTimer);
    // One that was let go may still be finishing: a new job goes to a new process.
    const child = this.child?.connected ? this.child : this.spawn();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, { child, resolve, timer: this.deadline(id, child) });
      child.send({ id, base, path: relative } satisfies CopiesJob, (error) => {
        if (error)
          this.finish(id, { id, error: `the copies process could not be reached (${error.message})` });
      });
    });
  }

  private deadline(id: number, child: ChildProcess): NodeJS.Timeout {
    return setTimeout(() => {
      this.finish(id, { id, error: 'it went two minutes without progress' });
      child.kill('SIGKILL');
    }, JOB_TIMEOUT_MS);
  }

  private progressed(id: number): void {
    const entry = this.waiting.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.timer = this.deadline(id, entry.child);
  }

  /** Lets the child go (it exits once the job in hand is done) and waits for it to leave. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const child = this.child;
    if (!child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.connected) child.disconnect();
    await exited;
  }

  private spawn(): ChildProcess {
    const { file, execArgv } = childEntry();
    const child = fork(file, [], {
      execArgv,
      env: { ...process.env, MALLOC_ARENA_MAX: '2', UV_THREADPOOL_SIZE: '2' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message: CopiesMessage) =>
      'progress' in message ? this.progressed(message.id) : this.finish(message.id, message),
    );
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      // Whatever it had in hand is lost; the queue logs it and a later scan tries again.
      for (const [id, entry] of this.waiting)
        if (entry.child === child)
          this.finish(id, { id, error: `the copies process stopped (${signal ?? `exit ${code}`})` });
    });
    this.child = child;
    return child;
  }

  private finish(id: number, reply: CopiesReply): void {
    const entry = this.waiting.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.waiting.delete(id);
    entry.resolve(reply);
    if (this.waiting.size === 0 && this.child) {
      const child = this.child;
      this.idleTimer = setTimeout(() => child.connected && child.disconnect(), IDLE_EXIT_MS);
      this.idleTimer.unref();
    }
  }
}

/**
 * The child's file: beside the built server (`dist/server/copies-child.js`, see
 * scripts/build-server.mjs: this code is bundled into `dist/server/main.js`, so `import.meta.dirname`
 * is `dist/server`), or `child.ts` beside this file, run through tsx, when the server itself runs
 * from source (tests, `npm run dev`).
 */
function childEntry(): { file: string; execArgv: string[] } {
  const built = path.join(import.meta.dirname, 'copies-child.js');
  if (existsSync(built)) return { file: built, execArgv: [] };
  return { file: path.join(import.meta.dirname, 'child.ts'), execArgv: ['--import', 'tsx'] };
}
