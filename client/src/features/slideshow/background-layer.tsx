import { SLIDESHOW_DEFAULTS } from '@common/slideshow-defaults';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { BACKDROP } from './backdrop';
import { SlideshowEngine } from './slideshow-engine';
import { SLIDESHOW_PREVIEW_EVENT, type SlideshowPreview } from './slideshow-events';
import { usePublicSlides } from './use-public-slides';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** The Network Information API's data saver: Chromium-based browsers only, hence optional. */
type NavigatorWithConnection = Navigator & {
  connection?: { saveData?: boolean } & Partial<
    Pick<EventTarget, 'addEventListener' | 'removeEventListener'>
  >;
};

/**
 * The full-screen slideshow behind every page: two crossfading layers played by
 * SlideshowEngine, and the overlay colour above them. On /admin routes the Background
 * Manager's live preview may override the overlay until it is saved, left or reloaded.
 */
export function BackgroundLayer() {
  const layerA = useRef<HTMLDivElement>(null);
  const layerB = useRef<HTMLDivElement>(null);
  const engine = useRef<SlideshowEngine | null>(null);
  const [preview, setPreview] = useState<SlideshowPreview | null>(null);
  const clearPreview = useCallback(() => setPreview(null), []);
  const data = usePublicSlides(clearPreview);
  const inAdmin = useLocation().pathname.startsWith('/admin');

  useEffect(() => {
    const created = new SlideshowEngine(layerA.current!, layerB.current!);
    engine.current = created;
    const motion = window.matchMedia?.(REDUCED_MOTION);
    const connection = (navigator as NavigatorWithConnection).connection;
    const onMotion = () => created.setReducedMotion(Boolean(motion?.matches));
    const onConnection = () => created.setSaveData(Boolean(connection?.saveData));
    const onVisibility = () => created.setHidden(document.visibilityState === 'hidden');
    onMotion();
    onConnection();
    onVisibility();
    motion?.addEventListener('change', onMotion);
    connection?.addEventListener?.('change', onConnection);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      motion?.removeEventListener('change', onMotion);
      connection?.removeEventListener?.('change', onConnection);
      document.removeEventListener('visibilitychange', onVisibility);
      created.destroy();
      engine.current = null;
    };
  }, []);

  useEffect(() => {
    if (data) engine.current?.setData(data.slides, data.config);
  }, [data]);

  useEffect(() => {
    if (!inAdmin) {
      setPreview(null);
      return;
    }
    const onPreview = (event: Event) => setPreview((event as CustomEvent<SlideshowPreview | null>).detail);
    window.addEventListener(SLIDESHOW_PREVIEW_EVENT, onPreview);
    return () => window.removeEventListener(SLIDESHOW_PREVIEW_EVENT, onPreview);
  }, [inAdmin]);

  const config = { ...(data?.config ?? SLIDESHOW_DEFAULTS), ...(inAdmin ? preview : null) };
  const empty = data !== null && data.slides.length === 0;

  return (
    <div aria-hidden="true" data-testid="slideshow" className="fixed inset-0 z-0 overflow-hidden bg-black">
      {/* Until slides arrive (or when there are none) a still gradient; under slides it gives way to black. */}
      <div
        className={`absolute inset-0 ${BACKDROP} transition-opacity duration-700 ${
          data === null || empty ? 'opacity-100' : 'opacity-0'
        }`}
      />
      <div ref={layerA} data-slide-layer="" className="absolute inset-0 opacity-0 will-change-[opacity]" />
      <div ref={layerB} data-slide-layer="" className="absolute inset-0 opacity-0 will-change-[opacity]" />
      <div
        data-testid="slideshow-overlay"
        className="absolute inset-0 z-[3]"
        style={{ backgroundColor: `rgba(${config.overlayColor}, ${config.overlayOpacity})` }}
      />
    </div>
  );
}
