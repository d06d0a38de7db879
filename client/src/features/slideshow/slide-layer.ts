import type { Slide } from '@common/schemas/slideshow';
import { type Media, release } from './slide-media';

/** One of the slideshow's two stacked layers: its element, and the slide and media it holds. */
export interface Layer {
  el: HTMLElement;
  media: Media | null;
  slide: Slide | null;
}

/** Fades the element (opacity only, so the compositor does the work), or sets it at once. */
export function setOpacity(el: HTMLElement, opacity: number, durationMs: number): void {
  el.style.transition = durationMs > 0 ? `opacity ${durationMs}ms ease-in-out` : 'none';
  el.style.opacity = String(opacity);
}

/** Lets go of the layer's file (stopping its download) and empties it. */
export function unload(layer: Layer): void {
  release(layer.media);
  layer.media = null;
  layer.slide = null;
}
