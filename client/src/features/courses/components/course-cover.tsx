import { COVER_SIZES } from '@common/courses';

/** Warm hues the placeholder covers take, one per course (from its id), so cards tell apart. */
const HUES = [22, 35, 200, 160, 275, 340];

/**
 * A course's picture, or for a course without one a drawn stand-in: its first letter on a
 * gradient of its own. Decorative either way (the title says what it is).
 */
export function CourseCover({
  id,
  title,
  url,
  srcset,
  sizes = COVER_SIZES.card,
  eager = false,
  className = '',
}: {
  id: string;
  title: string;
  url: string | null;
  /** The cover's resized copies; the browser picks the one for `sizes` at the screen's density. */
  srcset?: string;
  sizes?: string;
  eager?: boolean;
  className?: string;
}) {
  if (url)
    return (
      // srcset and sizes before src: React sets them in this order, and an image starts loading
      // the moment it has a src (the original, had it come first).
      <img
        sizes={srcset ? sizes : undefined}
        srcSet={srcset}
        src={url}
        alt=""
        loading={eager ? 'eager' : 'lazy'}
        fetchPriority={eager ? 'high' : undefined}
        decoding="async"
        className={`object-cover ${className}`}
      />
    );
  const hue = HUES[Number.parseInt(id.slice(-4), 16) % HUES.length] ?? 35;
  return (
    <div
      aria-hidden="true"
      className={`flex items-center justify-center ${className}`}
      style={{
        background: `radial-gradient(circle at 70% 80%, hsl(${hue} 85% 55% / 0.55), transparent 55%), linear-gradient(135deg, hsl(${hue} 45% 22%), hsl(${(hue + 40) % 360} 35% 10%))`,
      }}
    >
      <span className="font-display text-6xl text-white/80 drop-shadow-lg">
        {title.trim().charAt(0).toUpperCase()}
      </span>
    </div>
  );
}
