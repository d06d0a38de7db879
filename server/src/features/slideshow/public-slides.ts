import { createHash } from 'node:crypto';
import { mediaUrl } from '@common/media';
import type { PublicSlidesData, Slide, SlideshowPublicResponse } from '@common/schemas/slideshow';
import { COMPRESS_THRESHOLD, type ContentEncoding, compressBody } from '../../http/compression';
import { API_SECURITY_HEADERS } from '../../http/security-headers';
import { type CoursePictureUses, libraryPathOfUrl } from '../media/course-uses';
import type { MediaFolderRepository } from '../media/media-folder.repository';
import { listMedia } from '../media/media-library';
import type { PlaylistsRepository } from '../playlists/playlists.repository';
import { libraryUrls } from '../playlists/playlists.service';
import { DEFAULT_SLIDES } from './default-backgrounds';
import { withPictures } from './slide-pictures';
import type { SlideshowSettingsRepository } from './slideshow-settings.repository';

/**
 * Files can also change on disk without going through any server process (a copy by hand); this
 * bounds how long such a change can go unseen.
 */
const CACHE_TTL_MS = 2000;

/**
 * One representation of the answer (as it is, or compressed), with everything a request needs
 * worked out once: the bytes, the ETag, and the headers of a 200 and of a 304, as Node takes them
 * (a flat list: name, value, name, value…). The 200's include the API's security headers (the
 * same list the security hook sets on every API answer); CORS depends on the request and is
 * added by the route.
 */
export interface SlidesRepresentation {
  body: Buffer;
  etag: string;
  headers: readonly string[];
  notModifiedHeaders: readonly string[];
}

export interface PublicSlidesResponse extends SlidesRepresentation {
  /** The body in `encoding` with its own ETag, or null when it is too small to be worth it. */
  encoded(encoding: ContentEncoding): SlidesRepresentation | null;
}

/**
 * GET /api/slider/public runs on every page load and focus of every visitor, so the answer is
 * built once, serialised once and hashed once, then served from memory until a change to the
 * slideshow, a playlist or the media made through any server process (the revision, see
 * SharedChanges) or the TTL makes it stale.
 */
export class PublicSlides {
  private cached?: { revision: number; expiresAt: number; value: Promise<Built>; ready?: Built };

  constructor(
    private readonly slideshowSettings: SlideshowSettingsRepository,
    private readonly mediaFolder: MediaFolderRepository,
    private readonly playlists: PlaylistsRepository,
    /** A course's cover and its lessons' pictures are the course's: never a background. */
    private readonly coursePictures: CoursePictureUses = async () => [],
  ) {}

  async get(): Promise<PublicSlidesResponse> {
    return this.finish(await this.current());
  }

  /**
   * The answer at once when it is in memory and still fresh, else undefined (then use get()):
   * the common case costs no promise at all.
   */
  peek(): PublicSlidesResponse | undefined {
    const cached = this.cached;
    if (
      !cached?.ready ||
      cached.revision !== this.slideshowSettings.revision ||
      cached.expiresAt <= Date.now()
    ) {
      return undefined;
    }
    return this.finish(cached.ready);
  }

  private finish(built: Built): PublicSlidesResponse {
    if (!built.data.config.randomOrder || built.data.slides.length < 2) return built;
    // A fresh order on every load, as the spec asks; the answer (and its ETag) then differs each time.
    return serialise({ ...built.data, slides: shuffle(built.data.slides) });
  }

  private current(): Promise<Built> {
    const now = Date.now();
    const revision = this.slideshowSettings.revision;
    const cached = this.cached;
    if (cached && cached.revision === revision && cached.expiresAt > now) return cached.value;
    // Concurrent requests share one rebuild instead of each listing the folder.
    const value = this.build().then(serialise);
    const entry: NonNullable<typeof this.cached> = { revision, expiresAt: now + CACHE_TTL_MS, value };
    this.cached = entry;
    value.then(
      (built) => {
        entry.ready = built;
      },
      () => {
        if (this.cached === entry) this.cached = undefined;
      },
    );
    return value;
  }

  private async build(): Promise<PublicSlidesData> {
    const config = await this.slideshowSettings.get();
    const folder = await this.mediaFolder.get();
    const playlist = config.activePlaylist ? await this.playlists.findById(config.activePlaylist) : null;
    let slides: Slide[];
    if (playlist) {
      const library = await libraryUrls(folder);
      slides = (playlist.items ?? [])
        .filter((item) => library[item.type]?.has(item.url))
        .map((item) => ({ type: item.type, src: item.url }));
    } else {
      const files = await listMedia(folder);
      slides = [
        ...files
          .filter((f) => f.category === 'image')
          .map((f) => ({ type: 'image' as const, src: mediaUrl(f.path) })),
        ...files
          .filter((f) => f.category === 'video')
          .map((f) => ({ type: 'video' as const, src: mediaUrl(f.path) })),
      ];
    }
    const ofCourses = new Set((await this.coursePictures()).map((use) => libraryPathOfUrl(use.url)));
    slides = slides.filter((slide) => !ofCourses.has(libraryPathOfUrl(slide.src)));
    if (slides.length === 0) slides = [...DEFAULT_SLIDES];
    else slides = await withPictures(folder, slides);
    return {
      slides,
      images: [],
      videos: [],
      config: {
        cycleTime: config.cycleTime,
        transitionDuration: config.transitionDuration,
        overlayColor: config.overlayColor,
        overlayOpacity: config.overlayOpacity,
        randomOrder: config.randomOrder,
      },
    };
  }
}

interface Built extends PublicSlidesResponse {
  data: PublicSlidesData;
}

function serialise(data: PublicSlidesData): Built {
  // The legacy per-type lists always follow the slides' order.
  const full: PublicSlidesData = {
    ...data,
    images: data.slides.filter((s) => s.type === 'image').map((s) => s.src),
    videos: data.slides.filter((s) => s.type === 'video').map((s) => s.src),
  };
  const json = Buffer.from(JSON.stringify({ success: true, data: full } satisfies SlideshowPublicResponse));
  const hash = createHash('sha1').update(json).digest('base64url').slice(0, 27);
  // Compressed once per answer, not per request; each encoding is its own representation (ETag).
  const variants = new Map<ContentEncoding, SlidesRepresentation>();
  const encoded = (encoding: ContentEncoding) => {
    if (json.length < COMPRESS_THRESHOLD) return null;
    let variant = variants.get(encoding);
    if (!variant) {
      variant = representation(compressBody(json, encoding), `"${hash}-${encoding}"`, encoding);
      variants.set(encoding, variant);
    }
    return variant;
  };
  return { data: full, ...representation(json, `"${hash}"`), encoded };
}

function representation(body: Buffer, etag: string, encoding?: ContentEncoding): SlidesRepresentation {
  // Always revalidated (no-cache), but a browser that still has the same answer gets an empty 304.
  // A 304 carries what guides caches and nothing else (RFC 9110, 15.4.5): the browser keeps the
  // headers of the 200 it stored, security headers included, and updates only these.
  const notModifiedHeaders = ['cache-control', 'no-cache', 'etag', etag, 'vary', 'Accept-Encoding'];
  const headers = [
    ...Object.entries(API_SECURITY_HEADERS).flat(),
    ...notModifiedHeaders,
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(body.length),
  ];
  if (encoding) headers.push('content-encoding', encoding);
  return { body, etag, headers, notModifiedHeaders };
}

/** Fisher–Yates on a copy. */
export function shuffle<T>(list: readonly T[]): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
