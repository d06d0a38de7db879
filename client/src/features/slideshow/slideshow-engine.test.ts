import type { Slide } from '@common/schemas/slideshow';
import { describe, expect, it } from 'vitest';
import { DECODE_LIMIT_MS, PRELOAD_TIMEOUT_MS, SETTLE_MS } from './slideshow-engine';
import { stageEngine, TIMING, tick } from './slideshow-test-support';

const image = (name: string): Slide => ({ type: 'image', src: `/media/image/${name}.png` });
const video = (name: string): Slide => ({ type: 'video', src: `/media/video/${name}.mp4` });

const stage = stageEngine();

const media = () => [...document.querySelectorAll<HTMLImageElement | HTMLVideoElement>('img, video')];
const find = (src: string) => media().find((m) => m.getAttribute('src') === src);
const activeLayer = () => stage.layers.find((l) => l.dataset.active === 'true');
const visibleSrc = () => activeLayer()?.firstElementChild?.getAttribute('src') ?? null;
/** Fires the load event of the element that is loading `src` (the browser's part in jsdom). */
function finishLoading(
  src: string,
  event: 'load' | 'canplay' | 'error' = src.includes('/video/') ? 'canplay' : 'load',
) {
  const element = find(src);
  if (!element)
    throw new Error(`${src} is not loading; loading: ${media().map((m) => m.getAttribute('src'))}`);
  element.dispatchEvent(new Event(event));
}

describe('SlideshowEngine', () => {
  it('fades each image in after it loads and the settle delay, then moves on after the cycle time', async () => {
    stage.engine.setData([image('a'), image('b')], TIMING);
    await tick(0);
    expect(visibleSrc()).toBeNull();
    finishLoading('/media/image/a.png');
    await tick(SETTLE_MS - 1);
    expect(visibleSrc()).toBeNull();
    await tick(1);
    expect(visibleSrc()).toBe('/media/image/a.png');
    expect(activeLayer()!.style.opacity).toBe('1');
    expect(activeLayer()!.style.transition).toBe('opacity 1000ms ease-in-out');

    // The next one loads into the hidden layer once the fade is over; only two files at once.
    await tick(TIMING.transitionDuration);
    finishLoading('/media/image/b.png');
    expect(media()).toHaveLength(2);
    await tick(TIMING.cycleTime - TIMING.transitionDuration - 1);
    expect(visibleSrc()).toBe('/media/image/a.png');
    // The settle delay ran while a was showing: b comes exactly one cycle after a.
    await tick(1);
    expect(visibleSrc()).toBe('/media/image/b.png');
    // The old layer stays under the new one until the fade ends, then lets go of its file.
    expect(find('/media/image/a.png')).toBeDefined();
    await tick(TIMING.transitionDuration);
    expect(find('/media/image/a.png')).toBeDefined(); // already preloading again: a follows b
    expect(media()).toHaveLength(2);
    finishLoading('/media/image/a.png');
    await tick(TIMING.cycleTime + SETTLE_MS);
    expect(visibleSrc()).toBe('/media/image/a.png');
  });

  it('shows a loaded picture whose decoding never settles, after the decode limit', async () => {
    // jsdom has no decode(); Chromium's has been seen never to settle on a busy machine.
    Object.defineProperty(HTMLImageElement.prototype, 'decode', {
      configurable: true,
      value: () => new Promise<void>(() => {}),
    });
    try {
      stage.engine.setData([image('a'), image('b')], TIMING);
      await tick(0);
      finishLoading('/media/image/a.png');
      await tick(DECODE_LIMIT_MS + SETTLE_MS - 1);
      expect(visibleSrc()).toBeNull();
      await tick(1);
      expect(visibleSrc()).toBe('/media/image/a.png');
    } finally {
      delete (HTMLImageElement.prototype as { decode?: unknown }).decode;
    }
  });

  it('fades through black when the next item fails to load, then carries on with the one after', async () => {
    stage.engine.setData([image('a'), image('broken'), image('c')], TIMING);
    await tick(0);
    finishLoading('/media/image/a.png');
    await tick(SETTLE_MS + TIMING.transitionDuration);
    finishLoading('/media/image/broken.png', 'error');
    await tick(TIMING.cycleTime);
    // Nothing is shown: the layer of a fades out to the black beneath.
    expect(activeLayer()).toBeUndefined();
    expect(stage.layers.every((l) => l.style.opacity === '0')).toBe(true);
    await tick(TIMING.transitionDuration);
    finishLoading('/media/image/c.png');
    await tick(SETTLE_MS);
    expect(visibleSrc()).toBe('/media/image/c.png');
  });

  it('gives up on an item that takes longer than the preload timeout', async () => {
    stage.engine.setData([image('a'), video('slow'), image('c')], TIMING);
    await tick(0);
    finishLoading('/media/image/a.png');
    await tick(SETTLE_MS + TIMING.transitionDuration);
    expect(find('/media/video/slow.mp4')).toBeDefined();
    await tick(PRELOAD_TIMEOUT_MS.video - 1);
    expect(find('/media/video/slow.mp4')).toBeDefined();
    await tick(1);
    // Timed out: its download is dropped and the show fades to black before trying c.
    expect(find('/media/video/slow.mp4')).toBeUndefined();
    expect(activeLayer()).toBeUndefined();
    await tick(TIMING.transitionDuration);
    finishLoading('/media/image/c.png');
    await tick(SETTLE_MS);
    expect(visibleSrc()).toBe('/media/image/c.png');
  });

  it('plays a video muted and inline to its end when it is longer than the cycle time', async () => {
    stage.engine.setData([video('long'), image('b')], TIMING);
    await tick(0);
    finishLoading('/media/video/long.mp4');
    await tick(SETTLE_MS);
    const playing = find('/media/video/long.mp4') as HTMLVideoElement;
    expect(visibleSrc()).toBe('/media/video/long.mp4');
    expect(playing.muted && playing.playsInline && playing.autoplay).toBe(true);
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalled();
    await tick(TIMING.transitionDuration);
    finishLoading('/media/image/b.png');
    await tick(TIMING.cycleTime * 3);
    expect(visibleSrc()).toBe('/media/video/long.mp4');
    playing.dispatchEvent(new Event('ended'));
    await tick(SETTLE_MS);
    expect(visibleSrc()).toBe('/media/image/b.png');
  });

  it('keeps a short video going until the cycle time is up', async () => {
    stage.engine.setData([video('short'), image('b')], TIMING);
    await tick(0);
    finishLoading('/media/video/short.mp4');
    await tick(SETTLE_MS + TIMING.transitionDuration);
    finishLoading('/media/image/b.png');
    find('/media/video/short.mp4')!.dispatchEvent(new Event('ended'));
    await tick(500);
    expect(visibleSrc()).toBe('/media/video/short.mp4');
    await tick(TIMING.cycleTime - TIMING.transitionDuration - 500 + SETTLE_MS);
    expect(visibleSrc()).toBe('/media/image/b.png');
  });

  it('stands still while the tab is hidden', async () => {
    stage.engine.setData([image('a'), image('b')], TIMING);
    await tick(0);
    finishLoading('/media/image/a.png');
    await tick(SETTLE_MS + TIMING.transitionDuration);
    finishLoading('/media/image/b.png');
    stage.engine.setHidden(true);
    await tick(TIMING.cycleTime * 5);
    expect(visibleSrc()).toBe('/media/image/a.png');
    stage.engine.setHidden(false);
    await tick(TIMING.cycleTime - TIMING.transitionDuration + SETTLE_MS);
    expect(visibleSrc()).toBe('/media/image/b.png');
  });

  it('changes slides without a fade when reduced motion is preferred', async () => {
    stage.engine.setReducedMotion(true);
    stage.engine.setData([image('a'), image('b')], TIMING);
    await tick(0);
    finishLoading('/media/image/a.png');
    await tick(SETTLE_MS);
    expect(activeLayer()!.style.transition).toBe('none');
  });

  it('goes on from the current slide when new data arrives, and fades out when none are left', async () => {
    stage.engine.setData([image('a'), image('b')], TIMING);
    await tick(0);
    finishLoading('/media/image/a.png');
    await tick(SETTLE_MS);
    stage.engine.setData([image('z'), image('a'), image('y')], TIMING);
    await tick(TIMING.transitionDuration);
    // b was already on its way; after it, the new list goes on from b's absence at its start.
    finishLoading('/media/image/b.png');
    await tick(TIMING.cycleTime);
    expect(visibleSrc()).toBe('/media/image/b.png');
    stage.engine.setData([], TIMING);
    await tick(TIMING.transitionDuration + TIMING.cycleTime);
    expect(activeLayer()).toBeUndefined();
    expect(media()).toHaveLength(0);
  });
});
