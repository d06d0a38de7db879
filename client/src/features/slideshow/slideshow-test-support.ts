import { afterEach, beforeEach, vi } from 'vitest';
import { SlideshowEngine } from './slideshow-engine';

/** The slideshow's settings the engine tests play with. */
export const TIMING = { cycleTime: 4000, transitionDuration: 1000 };

/** Moves the fake clock on, running what falls due (timers and the promises they settle). */
export const tick = (ms: number) => vi.advanceTimersByTimeAsync(ms);

/**
 * The stage every engine test plays on, made afresh before each test: a fake clock, media
 * elements that never really play (jsdom has no media), the two layers and an engine over them.
 */
export function stageEngine(): { layers: [HTMLDivElement, HTMLDivElement]; engine: SlideshowEngine } {
  const stage = {} as { layers: [HTMLDivElement, HTMLDivElement]; engine: SlideshowEngine };
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
    vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
    stage.layers = [document.createElement('div'), document.createElement('div')];
    document.body.replaceChildren(...stage.layers);
    stage.engine = new SlideshowEngine(stage.layers[0], stage.layers[1]);
  });
  afterEach(() => {
    stage.engine.destroy();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  return stage;
}
