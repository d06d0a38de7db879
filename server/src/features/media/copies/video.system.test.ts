import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Slide } from '@common/schemas/slideshow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../../../test/media-fixtures';
import { bearer, createTestApp, createUser, type TestApp } from '../../../test/test-app';
import { parseMediaPath } from '../media-library';
import { COPIES_FOLDER, type CopiesManifest, isComplete, manifestName, readCopies } from './layout';
import { ffmpegAvailable } from './poster';

const run = promisify(execFile);
const hasFfmpeg = await ffmpegAvailable();
if (!hasFfmpeg) {
  const message = 'ffmpeg is not on PATH: the video copy tests are skipped (apt-get install -y ffmpeg).';
  // CI installs it (.ci/run): there a missing ffmpeg is a failure, never a quiet skip.
  if (process.env.CI) throw new Error(message);
  console.warn(message);
}

let t: TestApp;
let admin: string;
let base: string;
let work: string;
/** A second of 1080p at 50 frames a second with sound, as a camera gives it. */
let clip: Buffer;
/** Its manifest once uploaded as `video/Beach-Walk.mp4` and copied. */
let beach: CopiesManifest;

beforeAll(async () => {
  if (!hasFfmpeg) return;
  t = await createTestApp();
  admin = (await createUser(t, { role: 'admin' })).token;
  base = path.join(t.dataDir, 'media');
  work = await mkdtemp(path.join(tmpdir(), 'video-copy-test-'));
  const file = path.join(work, 'camera.mp4');
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=50'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '1', '-pix_fmt', 'yuv420p'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', file],
  ]);
  clip = await readFile(file);
  await upload('Beach Walk.mp4');
  beach = await completeCopiesOf('video/Beach-Walk.mp4');
}, 90_000);
afterAll(async () => {
  if (!hasFfmpeg) return;
  await t.close();
  await rm(work, { recursive: true, force: true });
});

async function upload(name: string) {
  const form = multipart({ mediaType: 'video', basePath: base }, [{ name, content: clip }]);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/media/upload',
    payload: form.payload,
    headers: { ...form.headers, ...bearer(admin) },
  });
  expect(response.statusCode).toBe(200);
}

/** The manifest once the video's copies are made too (they follow its poster, in the background). */
async function completeCopiesOf(relative: string): Promise<CopiesManifest> {
  const media = parseMediaPath(relative)!;
  for (let i = 0; i < 1200; i++) {
    const manifest = await readCopies(base, media);
    if (isComplete(media, manifest)) return manifest!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the copies of ${relative} were not made within a minute`);
}

async function probe(file: string) {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height,avg_frame_rate'],
    ...['-of', 'json', file],
  ]);
  return (JSON.parse(stdout) as { streams: Array<Record<string, unknown>> }).streams;
}

const scan = () =>
  t.app.inject({ method: 'POST', url: '/api/media/scan-files', payload: {}, headers: bearer(admin) });

describe.skipIf(!hasFfmpeg)('copies of videos for phones', () => {
  it('are made in H.264 1280 px wide, silent, at most 30 frames a second, index first, beside the poster', async () => {
    const manifest = beach;
    expect(manifest).toMatchObject({ width: 1920, height: 1080, videoWidths: [1280] });
    const file = path.join(base, COPIES_FOLDER, 'video', 'Beach-Walk.mp4', `${manifest.key}-1280.mp4`);
    expect(await probe(file)).toEqual([
      { codec_type: 'video', codec_name: 'h264', width: 1280, height: 720, avg_frame_rate: '30/1' },
    ]);
    // `faststart`: the index (moov) comes before the frames (mdat), so the first bytes show the first frame.
    const bytes = await readFile(file);
    expect(bytes.indexOf('moov')).toBeGreaterThan(0);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    expect(bytes.length).toBeLessThan(clip.length);
    const names = await readdir(path.dirname(file));
    expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('are served in byte ranges as video/mp4 with a year of immutable caching', async () => {
    const url = `/media/${COPIES_FOLDER}/video/Beach-Walk.mp4/${beach.key}-1280.mp4`;
    const response = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-99' } });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/);
    expect(response.rawPayload.length).toBe(100);
    for (const bad of [
      `/media/${COPIES_FOLDER}/video/Beach-Walk.mp4/${beach.key}-1280.mov`,
      `/media/${COPIES_FOLDER}/video/Beach-Walk.mp4/${beach.key}-thumb.mp4`,
      `/media/${COPIES_FOLDER}/video/other.mp4/${beach.key}-1280.mp4`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url: bad })).statusCode, bad).toBe(404);
    }
  });

  it('reach the public slides beside the poster; the original stays the slide and is untouched', async () => {
    const slides = (await t.app.inject({ method: 'GET', url: '/api/slider/public' })).json().data
      .slides as Slide[];
    expect(slides.find((slide) => slide.src === '/media/video/Beach-Walk.mp4')).toEqual({
      type: 'video',
      src: '/media/video/Beach-Walk.mp4',
      poster: expect.objectContaining({ srcset: expect.any(String) }),
      copies: [{ src: `/media/${COPIES_FOLDER}/video/Beach-Walk.mp4/${beach.key}-1280.mp4`, width: 1280 }],
    });
    expect((await readFile(path.join(base, 'video', 'Beach-Walk.mp4'))).equals(clip)).toBe(true);
  });

  it('are made by the next scan for a video whose poster was made before videos had copies', async () => {
    await upload('older.mp4');
    const made = await completeCopiesOf('video/older.mp4');
    // As the previous version left it: the poster's manifest, no copy.
    const folder = path.join(base, COPIES_FOLDER, 'video', 'older.mp4');
    await rm(path.join(folder, `${made.key}-1280.mp4`));
    const { videoWidths: _, ...before } = made;
    await writeFile(path.join(folder, manifestName(made.key)), JSON.stringify(before));
    expect(isComplete(parseMediaPath('video/older.mp4')!, before)).toBe(false);

    expect((await scan()).statusCode).toBe(200);
    const after = await completeCopiesOf('video/older.mp4');
    expect(after).toMatchObject({ key: made.key, videoWidths: [1280] });
    expect(await readdir(folder)).toContain(`${made.key}-1280.mp4`);
  }, 90_000);

  it('are never made from a file whose bytes are no video: a playlist named .mp4 opens nothing it names', async () => {
    // A video outside the library, and a playlist naming it placed in the folder under a video's
    // name (a folder scan judges by the name alone): ffmpeg must not follow it there.
    const outside = path.join(work, 'outside.mp4');
    await run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=10'],
      ...['-t', '1', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast'],
      ...['-movflags', '+faststart', outside],
    ]);
    const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n${outside}\n#EXT-X-ENDLIST\n`;
    await writeFile(path.join(base, 'video', 'playlist.mp4'), playlist);
    expect((await scan()).statusCode).toBe(200);
    const manifest = await completeCopiesOf('video/playlist.mp4');
    expect(manifest).toMatchObject({ widths: [], thumb: false, failed: expect.any(String) });
    expect(manifest.videoWidths ?? []).toEqual([]);
  }, 90_000);
});
