import { mediaUrl } from '@common/media';
import type { PlaylistItem } from '@common/schemas/playlist';
import { AppError } from '../../lib/app-error';
import type { MediaFolderRepository } from '../media/media-folder.repository';
import { listMedia } from '../media/media-library';
import type { SlideshowSettingsRepository } from '../slideshow/slideshow-settings.repository';
import type { PlaylistDoc, PlaylistLists, PlaylistsRepository } from './playlists.repository';

export interface PlaylistInput {
  items: PlaylistItem[];
  images: string[];
  videos: string[];
}

/** The library's playable files as the URLs playlists store, one set per type. */
export async function libraryUrls(basePath: string): Promise<{ image: Set<string>; video: Set<string> }> {
  const files = await listMedia(basePath);
  const image = new Set<string>();
  const video = new Set<string>();
  for (const file of files) {
    if (file.category === 'image') image.add(mediaUrl(file.path));
    else if (file.category === 'video') video.add(mediaUrl(file.path));
  }
  return { image, video };
}

/**
 * The ordered list a playlist keeps: `items` when given, else the legacy `images` then
 * `videos` lists. Only files that still exist in the library survive, each once.
 */
export function normalizeLists(
  input: PlaylistInput,
  library: { image: Set<string>; video: Set<string> },
): PlaylistLists {
  const wanted: PlaylistItem[] = input.items.length
    ? input.items
    : [
        ...input.images.map((url) => ({ type: 'image' as const, url })),
        ...input.videos.map((url) => ({ type: 'video' as const, url })),
      ];
  const seen = new Set<string>();
  const items: PlaylistItem[] = [];
  for (const item of wanted) {
    const key = `${item.type}:${item.url}`;
    if (seen.has(key) || !library[item.type].has(item.url)) continue;
    seen.add(key);
    items.push({ type: item.type, url: item.url });
  }
  return {
    items,
    images: items.filter((item) => item.type === 'image').map((item) => item.url),
    videos: items.filter((item) => item.type === 'video').map((item) => item.url),
  };
}

export class PlaylistsService {
  constructor(
    private readonly playlists: PlaylistsRepository,
    private readonly slideshowSettings: SlideshowSettingsRepository,
    private readonly mediaFolder: MediaFolderRepository,
  ) {}

  list(): Promise<PlaylistDoc[]> {
    return this.playlists.list();
  }

  async create(name: string, input: PlaylistInput): Promise<PlaylistDoc> {
    const created = await this.playlists.create(name, await this.keepExisting(input));
    await this.slideshowSettings.markChanged();
    return created;
  }

  async update(id: string, input: PlaylistInput): Promise<PlaylistDoc> {
    const updated = await this.playlists.update(id, await this.keepExisting(input));
    if (!updated) throw new AppError('NOT_FOUND', 'Playlist not found.');
    await this.slideshowSettings.markChanged();
    return updated;
  }

  /** Deleting the active playlist leaves none active, so the whole library plays again. */
  async delete(id: string): Promise<void> {
    if (!(await this.playlists.delete(id))) throw new AppError('NOT_FOUND', 'Playlist not found.');
    const config = await this.slideshowSettings.get();
    if (config.activePlaylist === id) await this.slideshowSettings.save({ ...config, activePlaylist: null });
    await this.slideshowSettings.markChanged();
  }

  private async keepExisting(input: PlaylistInput): Promise<PlaylistLists> {
    return normalizeLists(input, await libraryUrls(await this.mediaFolder.get()));
  }
}
