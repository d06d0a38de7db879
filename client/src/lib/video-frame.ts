/**
 * A video's address for a card that shows one frame: with only `preload="metadata"` a browser shows black
 * until played; asking for the moment 0.1 s in makes it fetch and show that frame.
 */
export function videoFrameSrc(src: string): string {
  return src.includes('#') ? src : `${src}#t=0.1`;
}
