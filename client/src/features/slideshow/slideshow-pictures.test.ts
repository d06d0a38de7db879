import type { Slide } from '@common/schemas/slideshow';
import { describe, expect, it, vi } from 'vitest';
import { PRELOAD_TIMEOUT_MS, SETTLE_MS } from './slideshow-engine';
import { stageEngine, TIMING, tick } from './slideshow-test-support';

const copies = (name: string) =>
  `/media/.copies/${name}/k-480.webp 480w, /media/.copies/${name}/k-1320.webp 1320w`;
const photo: Slide = { type: 'image', src: '/media/image/photo.jpg', srcset: copies('image/photo.jpg') };
const film: Slide = {
  type: 'video',
  src: '/media/video/film.mp4',
  poster: { src: '/media/.copies/video/film.mp4/k-960.webp', srcset: copies('video/film.mp4') },
};
const bare: Slide = { type: 'video', src: '/media/video/bare.mp4' };
const phoneCopy = '/media/.copies/video/film.mp4/k-1280.mp4';
const filmWithCopy: Slide = { ...film, copies: [{ src: phoneCopy, width: 1280 }] };

/** The screen as the player sees it: CSS pixels across and device pixels per CSS pixel. */
function screenOf(width: number, pixelRatio: number) {
  vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(width);
  vi.spyOn(window, 'devicePixelRatio', 'get').mockReturnValue(pixelRatio);
}

const stage = stageEngine();

const images = () => [...document.querySelectorAll('img')];
const videos = () => [...document.querySelectorAll('video')];
const activeImage = () => stage.layers.find((l) => l.dataset.active === 'true')?.querySelector('img') ?? null;
const load = (element: Element | undefined | null, event = 'load') =>
  element!.dispatchEvent(new Event(event));

describe('pictures that fit the screen', () => {
  it('offers the browser the copies of an image, sized to the screen width, the original as fallback', async () => {
    stage.engine.setData([photo, film], TIMING);
    await tick(0);
    const img = images()[0]!;
    expect(img.getAttribute('srcset')).toBe(photo.srcset);
    expect(img.getAttribute('sizes')).toBe('100vw');
    expect(img.getAttribute('src')).toBe(photo.src);
  });

  it('shows a video as its poster and creates no video at all when reduced motion is preferred', async () => {
    stage.engine.setReducedMotion(true);
    stage.engine.setData([photo, film, bare], TIMING);
    await tick(0);
    load(images()[0]);
    await tick(SETTLE_MS);
    expect(activeImage()?.getAttribute('src')).toBe(photo.src);
    // Once the photo's fade is over, the next slide loads.
    await tick(TIMING.transitionDuration);
    // Next comes the film, as a still: an image with the poster's copies, on an image's timeout.
    const poster = images().find((img) => img.getAttribute('src') === film.poster!.src);
    expect(poster?.getAttribute('srcset')).toBe(film.poster!.srcset);
    load(poster);
    await tick(TIMING.cycleTime);
    expect(activeImage()?.getAttribute('src')).toBe(film.poster!.src);
    // A video without a poster has nothing to show: it is left out, and the photo comes again.
    await tick(0);
    load(images().find((img) => img.getAttribute('src') === photo.src && img !== activeImage()));
    await tick(TIMING.cycleTime + SETTLE_MS);
    expect(activeImage()?.getAttribute('src')).toBe(photo.src);
    expect(videos()).toHaveLength(0);
    expect(HTMLMediaElement.prototype.load).not.toHaveBeenCalled();
  });

  it('does the same when the browser asks to save data, and a poster that does not come is skipped like an image', async () => {
    stage.engine.setSaveData(true);
    stage.engine.setData([film, photo], TIMING);
    await tick(PRELOAD_TIMEOUT_MS.image - 1);
    expect(images()).toHaveLength(1);
    expect(images()[0]!.getAttribute('src')).toBe(film.poster!.src);
    await tick(1);
    // Given up after the image timeout (not the video's), and the photo is tried next.
    expect(images().map((img) => img.getAttribute('src'))).toEqual([photo.src]);
    expect(videos()).toHaveLength(0);
  });

  it('plays the video itself again once the visitor no longer asks for stills', async () => {
    stage.engine.setSaveData(true);
    stage.engine.setData([photo, film], TIMING);
    await tick(0);
    load(images()[0]);
    await tick(SETTLE_MS);
    stage.engine.setSaveData(false);
    await tick(TIMING.transitionDuration);
    expect(videos().map((v) => v.getAttribute('src'))).toEqual([film.src]);
  });

  it('fetches only the start of the next video, and all of it once it shows', async () => {
    stage.engine.setData([photo, film], TIMING);
    await tick(0);
    load(images()[0]);
    await tick(SETTLE_MS + TIMING.transitionDuration);
    const next = videos()[0]!;
    expect(next.preload).toBe('metadata');
    // Its first frame is enough to count as loaded.
    load(next, 'loadeddata');
    await tick(TIMING.cycleTime);
    expect(stage.layers.find((l) => l.dataset.active === 'true')?.querySelector('video')).toBe(next);
    expect(next.preload).toBe('auto');
  });

  it.each([
    ['a phone (390 px at 3 device pixels: 1170)', 390, 3, phoneCopy],
    ['a large phone (448 px at 3: 1344, within a tenth of 1280)', 448, 3, phoneCopy],
    ['a small laptop (1280 px at 1)', 1280, 1, phoneCopy],
    ['a tablet (820 px at 2: 1640)', 820, 2, filmWithCopy.src],
    ['a desktop (1920 px at 1)', 1920, 1, filmWithCopy.src],
  ])(
    'plays on %s the video copy that fits the screen, else the original',
    async (_, width, ratio, expected) => {
      screenOf(width, ratio);
      stage.engine.setData([photo, filmWithCopy], TIMING);
      await tick(0);
      load(images()[0]);
      await tick(SETTLE_MS + TIMING.transitionDuration);
      expect(videos().map((v) => v.getAttribute('src'))).toEqual([expected]);
    },
  );

  it('plays the original of a video whose copies are not made yet, on any screen', async () => {
    screenOf(390, 3);
    stage.engine.setData([photo, film], TIMING);
    await tick(0);
    load(images()[0]);
    await tick(SETTLE_MS + TIMING.transitionDuration);
    expect(videos().map((v) => v.getAttribute('src'))).toEqual([film.src]);
  });

  it('starts loading the next video only its time-out and settle before its turn, which comes on time', async () => {
    const timing = { cycleTime: 8000, transitionDuration: 1500 };
    stage.engine.setData([photo, film], timing);
    await tick(0);
    load(images()[0]);
    await tick(SETTLE_MS);
    const lead = PRELOAD_TIMEOUT_MS.video + SETTLE_MS;
    await tick(timing.cycleTime - lead - 1);
    expect(videos()).toHaveLength(0);
    await tick(1);
    const next = videos()[0]!;
    expect(next.getAttribute('src')).toBe(film.src);
    // Its first frame came as fast as it may come last: it shows when the photo's time is up.
    await tick(PRELOAD_TIMEOUT_MS.video - 1);
    load(next, 'loadeddata');
    await tick(SETTLE_MS);
    expect(activeImage()?.getAttribute('src')).toBe(photo.src);
    await tick(1);
    expect(stage.layers.find((l) => l.dataset.active === 'true')?.querySelector('video')).toBe(next);
  });

  it('fades through black at its turn when the next video does not load within its time-out', async () => {
    const timing = { cycleTime: 8000, transitionDuration: 1500 };
    stage.engine.setData([photo, film], timing);
    await tick(0);
    load(images()[0]);
    await tick(SETTLE_MS + timing.cycleTime - 1);
    expect(activeImage()?.getAttribute('src')).toBe(photo.src);
    await tick(1);
    expect(stage.layers.some((l) => l.dataset.active === 'true')).toBe(false);
    expect(videos()).toHaveLength(0);
  });
});
