import { spawn } from 'node:child_process';
import { videoInputArgs } from './ffmpeg-input';
import { VIDEO_COPY_WIDTHS } from './layout';

/**
 * A background clip lasts seconds to minutes. Copying takes about half a second of one core per
 * second of 1080p video: past ten minutes the work is no longer a background chore, and such a
 * video plays as it is.
 */
export const MAX_VIDEO_COPY_SECONDS = 600;
/** ffmpeg reports its progress twice a second: silent this long, it is stuck on a hostile file. */
const SILENCE_TIMEOUT_MS = 60_000;
const PROBE_TIMEOUT_MS = 30_000;
const DISK_ERRORS = [
  ['No space left on device', 'ENOSPC'],
  ['Read-only file system', 'EROFS'],
] as const;

/**
 * How each copy is encoded. H.264 in MP4 plays in every browser (HEVC from an iPhone or an MKV
 * do not). Constant quality 26 at `veryfast` looks clean under the slideshow's overlay; the cap
 * keeps a grainy clip from costing a phone more than 1.5 Mbit/s. No sound: the slideshow plays
 * muted. At most 30 frames a second (a 60 fps phone clip costs twice the bytes for a background).
 * `faststart` puts the index first, so the first bytes are enough to show the first frame.
 * One thread for decoding and one for encoding: the copies leave the other cores to visitors.
 */
function encodeArgs(input: string[], width: number, output: string): string[] {
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-threads', '1', ...input],
    ...['-map', '0:v:0', '-an', '-sn', '-dn', '-map_metadata', '-1', '-vf', `scale=${width}:-2`],
    ...['-fpsmax', '30', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '26'],
    ...['-maxrate', '1500k', '-bufsize', '3000k', '-pix_fmt', 'yuv420p', '-threads', '1'],
    ...['-movflags', '+faststart', '-f', 'mp4', output, '-progress', 'pipe:1', '-nostats'],
  ];
}

/** The widths worth making for a video `width` px wide: never wider than it, nor a near twin of it. */
export function videoCopyWidthsFor(width: number): number[] {
  return VIDEO_COPY_WIDTHS.filter((w) => w < width * 0.9);
}

/**
 * Why `file` gets no copy although it is wide enough (it lasts more than
 * MAX_VIDEO_COPY_SECONDS, or its length cannot be read), or null when it may have one.
 */
export async function whyNoVideoCopy(file: string): Promise<string | null> {
  const input = await videoInputArgs(file);
  if (!input) return 'its content is not a video';
  const seconds = await durationOf(input);
  if (seconds === null) return 'its length could not be read';
  if (seconds > MAX_VIDEO_COPY_SECONDS)
    return `it lasts more than ${MAX_VIDEO_COPY_SECONDS / 60} minutes: every screen plays the original`;
  return null;
}

/**
 * Encodes the copy of the video `file`, `width` px wide, into `output` (which the caller renames
 * into place once whole). Answers null when ffmpeg finished well, else what it said; a full or
 * read-only disk is thrown. `onProgress` is called as ffmpeg advances.
 */
export async function encodeVideoCopy(
  file: string,
  width: number,
  output: string,
  onProgress: () => void,
): Promise<string | null> {
  const input = await videoInputArgs(file);
  if (!input) return 'its content is not a video';
  return runFfmpeg(encodeArgs(input, width, `file:${output}`), onProgress);
}

/** The video's length in seconds (ffprobe, which comes with ffmpeg), or null. */
function durationOf(input: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const args = [...input, '-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0'];
    const child = spawn('ffprobe', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      clearTimeout(timer);
      const seconds = Number.parseFloat(out);
      resolve(code === 0 && Number.isFinite(seconds) && seconds > 0 ? seconds : null);
    });
  });
}

/**
 * Runs ffmpeg; answers null once it has finished well, else the last thing it said. Killed when
 * it has reported no progress for a minute. A full or read-only disk is no fault of the file's:
 * thrown with its code, so that a later scan tries again.
 */
function runFfmpeg(args: string[], onProgress: () => void): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let said = '';
    let timer = setTimeout(() => child.kill('SIGKILL'), SILENCE_TIMEOUT_MS);
    child.stdout.on('data', () => {
      clearTimeout(timer);
      timer = setTimeout(() => child.kill('SIGKILL'), SILENCE_TIMEOUT_MS);
      onProgress();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      said = (said + chunk.toString()).slice(-2000);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(null);
      for (const [text, errno] of DISK_ERRORS)
        if (said.includes(text)) return reject(Object.assign(new Error(text), { code: errno }));
      const last = said.trim().split('\n').pop();
      resolve(last || (signal ? `stopped after a minute without progress (${signal})` : `exit ${code}`));
    });
  });
}
