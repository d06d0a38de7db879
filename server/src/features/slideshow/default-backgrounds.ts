import { createHash } from 'node:crypto';
import type { Slide } from '@common/schemas/slideshow';

/**
 * Backgrounds made by the project, drawn as SVG so the repository stays small and they stay
 * sharp on any screen. They play whenever nothing else is playable (a new install, or a
 * library emptied out), so the landing page is never a blank slideshow. They are served from
 * here rather than copied into the media folder: the owner's library stays exactly what the
 * owner put there, and the defaults step aside by themselves as soon as real media arrives.
 * Gradients only, no filters: cheap to rasterise once and to fade with opacity.
 */
const FRAME =
  'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1920 1080" preserveAspectRatio="xMidYMid slice"';

const glow = (id: string, colour: string, opacity: number) =>
  `<radialGradient id="${id}"><stop offset="0" stop-color="${colour}" stop-opacity="${opacity}"/><stop offset="1" stop-color="${colour}" stop-opacity="0"/></radialGradient>`;

const DEFAULT_BACKGROUNDS: Record<string, string> = {
  dusk: `<svg ${FRAME}><defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1e1b4b"/><stop offset=".55" stop-color="#7c2d12"/><stop offset="1" stop-color="#f59e0b"/></linearGradient>${glow('sun', '#fde68a', 0.9)}</defs><rect width="1920" height="1080" fill="url(#sky)"/><circle cx="1240" cy="700" r="420" fill="url(#sun)"/><path d="M0 760 C320 640 560 700 840 650 S1440 560 1920 690 V1080 H0Z" fill="#431407" opacity=".85"/><path d="M0 860 C400 760 760 840 1080 790 S1620 740 1920 820 V1080 H0Z" fill="#27120a" opacity=".92"/><path d="M0 960 C480 900 900 960 1300 930 S1760 900 1920 940 V1080 H0Z" fill="#0c0a09"/></svg>`,
  tide: `<svg ${FRAME}><defs><linearGradient id="sea" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#042f2e"/><stop offset=".6" stop-color="#0c4a6e"/><stop offset="1" stop-color="#082f49"/></linearGradient>${glow('a', '#2dd4bf', 0.55)}${glow('b', '#38bdf8', 0.45)}</defs><rect width="1920" height="1080" fill="url(#sea)"/><circle cx="420" cy="300" r="560" fill="url(#a)"/><circle cx="1560" cy="820" r="640" fill="url(#b)"/><g fill="none" stroke="#ecfeff" stroke-opacity=".07" stroke-width="3"><path d="M0 620 C320 560 640 680 960 620 S1600 560 1920 620"/><path d="M0 700 C320 640 640 760 960 700 S1600 640 1920 700"/><path d="M0 780 C320 720 640 840 960 780 S1600 720 1920 780"/></g></svg>`,
  ember: `<svg ${FRAME}><defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0c0a09"/><stop offset="1" stop-color="#431407"/></linearGradient>${glow('c', '#ea580c', 0.6)}${glow('d', '#fbbf24', 0.4)}${glow('e', '#be123c', 0.35)}</defs><rect width="1920" height="1080" fill="url(#bg)"/><circle cx="1400" cy="260" r="620" fill="url(#c)"/><circle cx="520" cy="880" r="520" fill="url(#d)"/><circle cx="960" cy="560" r="380" fill="url(#e)"/></svg>`,
  aurora: `<svg ${FRAME}><defs><linearGradient id="night" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#020617"/><stop offset="1" stop-color="#1e1b4b"/></linearGradient><linearGradient id="band" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#22c55e" stop-opacity="0"/><stop offset=".35" stop-color="#4ade80" stop-opacity=".45"/><stop offset=".7" stop-color="#a78bfa" stop-opacity=".4"/><stop offset="1" stop-color="#a78bfa" stop-opacity="0"/></linearGradient></defs><rect width="1920" height="1080" fill="url(#night)"/><path d="M-100 520 C300 260 700 420 1000 300 S1600 120 2020 260 L2020 420 C1600 300 1300 480 1000 470 S400 460 -100 700Z" fill="url(#band)"/><path d="M-100 640 C400 440 800 560 1160 470 S1700 380 2020 430 L2020 520 C1700 480 1300 600 1000 600 S300 640 -100 760Z" fill="url(#band)" opacity=".6"/><path d="M0 900 L260 760 L460 880 L700 720 L980 900 L1240 780 L1500 900 L1720 800 L1920 880 V1080 H0Z" fill="#020617"/></svg>`,
};

export const DEFAULT_BACKGROUND_NAMES = Object.keys(DEFAULT_BACKGROUNDS);

export function defaultBackgroundSvg(name: string): string | undefined {
  return Object.hasOwn(DEFAULT_BACKGROUNDS, name) ? DEFAULT_BACKGROUNDS[name] : undefined;
}

/** A short hash of the drawing: its URL changes when the drawing does, so browsers may keep it a year. */
export function defaultBackgroundVersion(name: string): string | undefined {
  const svg = defaultBackgroundSvg(name);
  return svg && createHash('sha1').update(svg).digest('base64url').slice(0, 10);
}

export const DEFAULT_SLIDES: readonly Slide[] = DEFAULT_BACKGROUND_NAMES.map((name) => ({
  type: 'image',
  src: `/api/slider/defaults/${name}.svg?v=${defaultBackgroundVersion(name)}`,
}));
