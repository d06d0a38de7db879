import { getsCopies } from '@common/media';
import type { FastifyBaseLogger } from 'fastify';
import { type MediaPath, parseMediaPath } from '../media-library';
import type { MakeOutcome } from './maker';
import { ffmpegAvailable } from './poster';
import { CopiesProcess } from './process';

interface Job {
  base: string;
  media: MediaPath;
}

/**
 * The copies still to make, one file at a time, in the background (in a child process, see
 * process.ts): an upload or a scan adds to it and answers at once. What it holds is only work in
 * progress (what it makes lives on disk, where every process and machine reads it); a job lost
 * with its process is made again by the next scan. Two processes given the same file meet at its lock, and one of them skips it.
 */
export class CopiesQueue {
  private readonly pending = new Map<string, Job>();
  private running: Promise<void> | null = null;
  private closed = false;
  private warnedNoFfmpeg = false;
  private readonly maker = new CopiesProcess();

  constructor(
    private readonly log: FastifyBaseLogger,
    /** Called once a batch has made something, so the public slides offer the copies at once. */
    private readonly onMade: () => Promise<void>,
  ) {}

  /** Queues library paths (`image/a.jpg`) of `base`; those that get no copies are left out. */
  add(base: string, paths: Iterable<string>): void {
    if (this.closed) return;
    for (const relative of paths) {
      const media = parseMediaPath(relative);
      if (!media || !getsCopies(media.category, media.name)) continue;
      this.pending.set(`${base}\0${relative}`, { base, media });
    }
    // Started after the current request's answer has gone out: starting the copies process
    // takes the event loop a few milliseconds.
    if (this.pending.size > 0)
      this.running ??= new Promise((resolve) => setImmediate(resolve)).then(() => this.drain());
  }

  /** Resolves once everything queued so far is done. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Takes no more work and waits for the file being made (seconds at most). */
  async close(): Promise<void> {
    this.closed = true;
    this.pending.clear();
    await this.idle();
    await this.maker.close();
  }

  private async drain(): Promise<void> {
    const started = performance.now();
    const counts: Partial<Record<MakeOutcome | 'error', number>> = {};
    try {
      for (let job = this.next(); job; job = this.next()) {
        const outcome = await this.make(job);
        counts[outcome] = (counts[outcome] ?? 0) + 1;
        // Between two pictures, let whatever the visitors asked for run first.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (counts.made) {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        this.log.info({ copies: counts }, `Picture copies made for ${counts.made} file(s) in ${seconds} s`);
        await this.onMade().catch((error: unknown) =>
          this.log.warn({ err: error }, 'Could not announce new picture copies'),
        );
      }
    } finally {
      this.running = null;
      if (this.pending.size > 0 && !this.closed) this.running = this.drain();
    }
  }

  /** Pictures first: a video's copies take as long as many pictures, which should not wait for them. */
  private next(): Job | undefined {
    let chosen: [string, Job] | undefined;
    for (const entry of this.pending) {
      chosen ??= entry;
      if (entry[1].media.category !== 'video') {
        chosen = entry;
        break;
      }
    }
    if (!chosen) return undefined;
    this.pending.delete(chosen[0]);
    return chosen[1];
  }

  private async make({ base, media }: Job): Promise<MakeOutcome | 'error'> {
    const relative = `${media.category}/${media.name}`;
    const reply = await this.maker.make(base, relative);
    if ('error' in reply) {
      // The disk refused (full, read-only), or the decoder gave up: the original is still
      // served, and a later scan tries again.
      this.log.warn(`Could not make picture copies of ${relative}: ${reply.error}`);
      return 'error';
    }
    if (reply.outcome === 'unreadable')
      this.log.warn(`No picture copies for ${relative}: it could not be read as a picture`);
    if (reply.note) this.log.warn(`No copy of ${relative} for phones: ${reply.note}`);
    if (reply.outcome === 'skipped' && media.category === 'video') await this.sayNoFfmpeg();
    return reply.outcome;
  }

  private async sayNoFfmpeg(): Promise<void> {
    if (this.warnedNoFfmpeg || (await ffmpegAvailable())) return;
    this.warnedNoFfmpeg = true;
    this.log.warn(
      'ffmpeg is not installed (not on PATH): videos get no poster picture, and visitors who ask for reduced motion or to save data see no video slides. Install it (apt-get install ffmpeg) and scan the library.',
    );
  }
}
