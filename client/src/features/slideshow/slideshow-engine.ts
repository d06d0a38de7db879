import type { Slide } from '@common/schemas/slideshow';
import { PausedClock } from './paused-clock';
import { type Layer, setOpacity, unload } from './slide-layer';
import { createMedia, playableSlides, sameSlides, whenLoaded } from './slide-media';

/** How long the next item may take to load (images 2.5 s, videos 3 s), and a pause to let it paint. */
export const PRELOAD_TIMEOUT_MS = { image: 2500, video: 3000 } as const;
export const SETTLE_MS = 350;
/** The longest wait for a loaded picture's decode() (Chromium's may never settle): then it is shown anyway. */
export const DECODE_LIMIT_MS = 1000;

export interface SlideshowTiming {
  cycleTime: number;
  transitionDuration: number;
}

/**
 * Plays slides on two stacked layers, outside React so that a slide change costs no render.
 * The next item loads into the hidden layer while the current one shows; the new layer then
 * fades in above the old one (opacity only, so the compositor does the work). If the next item
 * fails to load in time, the current one fades out to black and the show carries on with the
 * item after it. At most two media elements exist at once: only current and next download, so
 * a video is fetched only once it is next, and only from its preload time-out before its turn
 * (its first frame, then all of it once it shows). A visitor who asks for reduced motion or to save data
 * sees videos as their posters (`postersOnly`) and downloads no video. Its waits run on a PausedClock
 * (paused-clock.ts); a layer and its fades are in slide-layer.ts.
 */
export class SlideshowEngine {
  /** The slides as given; `slides` are those of them that can play now. */
  private given: Slide[] = [];
  private slides: Slide[] = [];
  private timing: SlideshowTiming = { cycleTime: 8000, transitionDuration: 1500 };
  private readonly layers: [Layer, Layer];
  private front = 0;
  private generation = 0;
  private running = false;
  private reducedMotion = false;
  private saveData = false;
  /** Every wait of the show: it stops counting while the tab is hidden. */
  private readonly time = new PausedClock();
  private currentDone: Promise<void> = Promise.resolve();
  /** When a next video may start loading: its preload time-out and settle before the slide's time is up. */
  private videoLoadMay: Promise<void> = Promise.resolve();
  /** Until the last fade has finished, the layer it left is still on screen and not reusable. */
  private transitionDone: Promise<void> = Promise.resolve();
  private changed: (() => void) | null = null;
  private failuresInARow = 0;
  /** The src of the item last shown or tried: the show goes on from the one after it. */
  private cursor: string | null = null;

  constructor(layerA: HTMLElement, layerB: HTMLElement) {
    this.layers = [
      { el: layerA, media: null, slide: null },
      { el: layerB, media: null, slide: null },
    ];
    for (const layer of this.layers) setOpacity(layer.el, 0, 0);
  }

  setData(slides: Slide[], timing: SlideshowTiming): void {
    this.timing = timing;
    if (!sameSlides(slides, this.given)) {
      this.given = [...slides];
      this.slides = playableSlides(slides, this.postersOnly);
    }
    this.changed?.();
    if (!this.running) {
      this.running = true;
      void this.run(this.generation);
    }
  }

  setReducedMotion(reduced: boolean): void {
    this.reducedMotion = reduced;
    this.replay();
  }

  /** The browser's data saver (`navigator.connection.saveData`). */
  setSaveData(saveData: boolean): void {
    this.saveData = saveData;
    this.replay();
  }

  private get postersOnly(): boolean {
    return this.reducedMotion || this.saveData;
  }

  /** The next slide chosen follows the visitor's wishes as they are now. */
  private replay(): void {
    const slides = playableSlides(this.given, this.postersOnly);
    if (sameSlides(slides, this.slides)) return;
    this.slides = slides;
    this.changed?.();
  }

  /** While the tab is hidden nothing counts down and videos stop. */
  setHidden(hidden: boolean): void {
    if (hidden === this.time.hidden) return;
    this.time.setHidden(hidden);
    const video = this.layers[this.front]!.media;
    if (video instanceof HTMLVideoElement) {
      if (hidden) video.pause();
      else void video.play().catch(() => {});
    }
  }

  destroy(): void {
    this.generation += 1;
    this.time.cancelAll();
    this.changed?.();
    for (const layer of this.layers) unload(layer);
  }

  /** The slide on the visible layer, if any (for tests and the page's data attributes). */
  get current(): Slide | null {
    const layer = this.layers[this.front]!;
    return layer.el.dataset.active === 'true' ? layer.slide : null;
  }

  private async run(generation: number): Promise<void> {
    const alive = () => generation === this.generation;
    while (alive()) {
      const showing = this.current;
      if (this.slides.length === 0 || (this.slides.length === 1 && showing?.src === this.slides[0]!.src)) {
        if (this.slides.length === 0 && showing) this.fadeOut(this.layers[this.front]!);
        // One slide just stays (a lone video loops); wait for new data.
        const lone = this.layers[this.front]!.media;
        if (lone instanceof HTMLVideoElement) lone.loop = true;
        await new Promise<void>((resolve) => {
          this.changed = resolve;
        });
        this.changed = null;
        continue;
      }
      const cursor = this.cursor;
      const position = cursor ? this.slides.findIndex((s) => s.src === cursor) : -1;
      const slide = this.slides[(position + 1) % this.slides.length]!;
      await this.transitionDone;
      // A video is the costly one: it starts loading only as late as its time-out allows, so a
      // visitor who leaves (or hides the tab) before has not paid for its start.
      if (slide.type === 'video' && !this.postersOnly) {
        await this.videoLoadMay;
        if (alive() && !this.slides.includes(slide)) continue; // the slides changed meanwhile
      }
      if (!alive()) return;
      const back = this.layers[1 - this.front]!;
      unload(back);
      const media = createMedia(slide, this.postersOnly);
      back.media = media;
      back.slide = slide;
      back.el.replaceChildren(media);

      const loaded = await Promise.race([
        whenLoaded(media),
        this.time
          .delay(PRELOAD_TIMEOUT_MS[media instanceof HTMLVideoElement ? 'video' : 'image'])
          .then(() => false),
      ]);
      if (loaded) {
        // Decoded and settled while the current slide still shows, so the cycle keeps its length.
        if (media instanceof HTMLImageElement && media.decode)
          await Promise.race([media.decode().catch(() => {}), this.time.delay(DECODE_LIMIT_MS)]);
        await this.time.delay(SETTLE_MS);
      } else {
        // A failed or late item stops downloading now, not when the current slide ends.
        unload(back);
      }
      await this.currentDone;
      if (!alive()) return;

      if (loaded) {
        this.failuresInARow = 0;
        this.show(back);
      } else {
        // Fade through black instead of flashing a half-loaded item; try the one after it next.
        const front = this.layers[this.front]!;
        if (front.el.dataset.active === 'true') this.fadeOut(front);
        this.cursor = slide.src;
        this.failuresInARow += 1;
        if (this.failuresInARow >= this.slides.length) {
          this.failuresInARow = 0;
          await this.time.delay(this.timing.cycleTime);
        }
      }
    }
  }

  private show(layer: Layer): void {
    const old = this.layers[this.front]!;
    const duration = this.reducedMotion ? 0 : this.timing.transitionDuration;
    layer.el.style.zIndex = '2';
    old.el.style.zIndex = '1';
    setOpacity(layer.el, 1, duration);
    layer.el.dataset.active = 'true';
    old.el.dataset.active = 'false';
    this.front = this.layers.indexOf(layer);
    this.cursor = layer.slide?.src ?? null;
    const media = layer.media;
    if (media instanceof HTMLVideoElement) {
      media.preload = 'auto';
      media.autoplay = true;
      if (!this.time.hidden) void media.play().catch(() => {});
    }
    // The old layer stays opaque underneath until the new one covers it: no dip to black mid-fade.
    const leaving = old.media;
    this.transitionDone = this.time.delay(duration).then(() => {
      if (old.media !== leaving) return;
      setOpacity(old.el, 0, 0);
      unload(old);
    });
    this.currentDone = this.clock(layer);
    this.videoLoadMay = this.time.delay(
      Math.max(0, this.timing.cycleTime - PRELOAD_TIMEOUT_MS.video - SETTLE_MS),
    );
  }

  /** Resolves when the slide has had its time: the cycle time, and for a video also its end. */
  private clock(layer: Layer): Promise<void> {
    const media = layer.media;
    const timeUp = this.time.delay(this.timing.cycleTime);
    if (!(media instanceof HTMLVideoElement)) return timeUp;
    let finished = false;
    const ended = new Promise<void>((resolve) => {
      media.addEventListener('error', () => resolve());
      media.addEventListener('ended', () => {
        resolve();
        // Shorter than the cycle: start again rather than freeze on the last frame.
        if (!finished) {
          media.currentTime = 0;
          if (!this.time.hidden) void media.play().catch(() => {});
        }
      });
    });
    return Promise.all([timeUp.then(() => (finished = true)), ended]).then(() => {});
  }

  private fadeOut(layer: Layer): void {
    const duration = this.reducedMotion ? 0 : this.timing.transitionDuration;
    setOpacity(layer.el, 0, duration);
    layer.el.dataset.active = 'false';
    const leaving = layer.media;
    this.transitionDone = this.time.delay(duration).then(() => {
      if (layer.media === leaving) unload(layer);
    });
    this.currentDone = Promise.resolve();
    this.videoLoadMay = Promise.resolve();
  }
}
