import { spawn } from 'node:child_process';
import { videoInputArgs } from './ffmpeg-input';

/** Where the poster is taken: past a fade-in from black, early enough for any clip. */
const POSTER_AT_SECONDS = 1;
/** A frame takes well under a second; a stuck or hostile file must not hold the queue. */
const FFMPEG_TIMEOUT_MS = 60_000;
/** A 4K frame as PNG is about 25 MB; anything larger is not a frame we want to hold. */
const MAX_POSTER_BYTES = 64 * 1024 * 1024;

let available: Promise<boolean> | undefined;

/** Whether `ffmpeg` is on PATH (asked once per process). Without it videos get no poster. */
export function ffmpegAvailable(): Promise<boolean> {
  available ??= new Promise((resolve) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-version'], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
  return available;
}

/**
 * One frame of a video as a PNG, taken at about 1 s (or the first frame of a shorter clip), or
 * null when ffmpeg finds none or the file's bytes are no video (see videoInputArgs). The video is
 * read as it is on disk; nothing is written.
 */
export async function videoPoster(file: string): Promise<Buffer | null> {
  const input = await videoInputArgs(file);
  if (!input) return null;
  return (await frameAt(input, POSTER_AT_SECONDS)) ?? frameAt(input, 0);
}

function frameAt(input: string[], seconds: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
    // -ss before -i seeks by the container's index: instant, even deep into a long file.
    if (seconds > 0) args.push('-ss', String(seconds));
    args.push(...input, '-frames:v', '1', '-an', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1');
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => child.kill('SIGKILL'), FFMPEG_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_POSTER_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 && size > 0 && size <= MAX_POSTER_BYTES ? Buffer.concat(chunks) : null);
    });
  });
}
