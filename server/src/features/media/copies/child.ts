// The process that makes the copies (started by process.ts, never on its own): it
// takes one job at a time over IPC, answers its outcome, and exits when its parent lets go of it.
import { setPriority } from 'node:os';
import { parseMediaPath } from '../media-library';
import { makeCopies } from './maker';
import type { CopiesJob, CopiesMessage } from './process';

// Visitors' requests come first: on a machine this busy, the copies wait their turn for a core.
try {
  setPriority(19);
} catch {
  // Not allowed here: run at the usual priority.
}

let chain: Promise<void> = Promise.resolve();
/** A video's copies take minutes: the parent hears that the job advances, at most this often. */
const PROGRESS_EVERY_MS = 10_000;

process.on('message', (job: CopiesJob) => {
  // One at a time, in the order sent: the memory of one picture at most.
  chain = chain.then(async () => {
    let reply: CopiesMessage;
    let told = Date.now();
    const onProgress = () => {
      if (Date.now() - told < PROGRESS_EVERY_MS) return;
      told = Date.now();
      process.send?.({ id: job.id, progress: true } satisfies CopiesMessage);
    };
    try {
      const media = parseMediaPath(job.path);
      reply = {
        id: job.id,
        ...(media ? await makeCopies(job.base, media, { onProgress }) : { outcome: 'gone' }),
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      reply = { id: job.id, error: `${code ? `${code}: ` : ''}${(error as Error).message}` };
    }
    process.send?.(reply);
  });
});

process.on('disconnect', () => process.exit(0));
