import { execFile } from 'node:child_process';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

const WIDTH = 4000;
const HEIGHT = 3000;
const MIN_PHOTO_BYTES = 6 * 1024 * 1024;
const MB = 1024 * 1024;

/**
 * A library as a camera fills it, made once and kept in `folder` for later runs: `count` photos
 * of 4000 × 3000 saved as JPEG of at least 6 MB, and a 20-second 1080p H.264 video of about 6 MB.
 * The photos are noise at several scales (broad shapes, textures, fine grain, like a sensor's),
 * so that they compress like photographs and not like flat colour: the original is really that
 * big, and so are its copies.
 */
export async function cameraLibrary(folder: string, count = 4): Promise<{ photos: string[]; video: string }> {
  await mkdir(folder, { recursive: true });
  const photos: string[] = [];
  for (let i = 1; i <= count; i++) {
    const file = path.join(folder, `photo-${i}.jpg`);
    if (!(await exists(file))) await writeAtomically(file, await cameraPhoto(i));
    photos.push(file);
  }
  const video = path.join(folder, 'clip.mp4');
  if (!(await exists(video))) {
    const temp = `${video}.part.mp4`;
    // Colour bars and moving patterns with grain, encoded at a constant 2.4 Mbit/s: about 6 MB.
    await promisify(execFile)('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', 'testsrc2=size=1920x1080:rate=30,noise=alls=12:allf=t+u', '-t', '20'],
      ...[
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-b:v',
        '2400k',
        '-minrate',
        '2400k',
        '-maxrate',
        '2400k',
      ],
      ...['-bufsize', '4800k', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', temp],
    ]);
    await rename(temp, video);
  }
  return { photos, video };
}

async function cameraPhoto(seed: number): Promise<Buffer> {
  const random = mulberry32(seed);
  // Broad shapes, then finer detail at lower strength: most of a photo's energy is in the large scales.
  const scales: Array<[number, number, number]> = [
    [16, 12, 1],
    [120, 90, 0.5],
    [500, 375, 0.3],
    [1000, 750, 0.2],
  ];
  const total = scales.reduce((sum, [, , weight]) => sum + weight, 0);
  const layers = await Promise.all(
    scales.map(async ([w, h, weight]) => {
      const small = Buffer.alloc(w * h * 3);
      for (let i = 0; i < small.length; i++) small[i] = Math.floor(random() * 256);
      const big = await sharp(small, { raw: { width: w, height: h, channels: 3 } })
        .resize(WIDTH, HEIGHT, { kernel: 'cubic' })
        .raw()
        .toBuffer();
      return { big, gain: (weight / total) * 1.6 };
    }),
  );
  const grain = await sharp({
    create: {
      width: WIDTH,
      height: HEIGHT,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 6 },
    },
  })
    .raw()
    .toBuffer();
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let i = 0; i < pixels.length; i++) {
    let value = grain[i]!;
    for (const { big, gain } of layers) value += (big[i]! - 128) * gain;
    pixels[i] = value < 0 ? 0 : value > 255 ? 255 : value;
  }
  // A camera's high quality; raised until the file is as big as a camera's.
  for (let quality = 94; ; quality++) {
    const jpeg = await sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
    if (jpeg.length >= MIN_PHOTO_BYTES || quality >= 100) return jpeg;
  }
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

async function writeAtomically(file: string, data: Buffer): Promise<void> {
  await writeFile(`${file}.part`, data);
  await rename(`${file}.part`, file);
}

export const megabytes = (bytes: number) => `${(bytes / MB).toFixed(2)} MB`;
