/** Warm hues the placeholder covers take, one per course (from its id), so cards tell apart. */
const HUES = [22, 35, 200, 160, 275, 340];

/**
 * A course's picture, or for a course without one a drawn stand-in: its first letter on a
 * gradient of its own. Decorative either way (the title says what it is).
 */
/** A card's width: the catalogue's grid of three (of at most 64rem), two, or one across. */
export const CARD_SIZES = '(min-width: 1024px) 330px, (min-width: 640px) 50vw, 100vw';

export function CourseCover({
  id,
  title,
  url,
  srcset,
  sizes = CARD_SIZES,
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
      <img
        src={url}
        srcSet={srcset}
        sizes={srcset ? sizes : undefined}
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
