/**
 * The full-screen layer behind every page. For now a still gradient; the slideshow feature
 * replaces its contents with the crossfading images and videos.
 */
export function BackgroundLayer() {
  return (
    <div aria-hidden="true" className="fixed inset-0 z-0 overflow-hidden bg-stone-950">
      <div className="absolute inset-0 bg-[radial-gradient(ellipse_at_top,_#44403c_0%,_#1c1917_45%,_#0c0a09_100%)]" />
      <div className="absolute inset-0 bg-black/20" />
    </div>
  );
}
