import type { Playlist, PlaylistItem } from '@common/schemas/playlist';
import type { Collection, Store, StoredDoc } from '../../store/store';

export interface PlaylistDoc extends StoredDoc {
  name: string;
  items: PlaylistItem[];
  images: string[];
  videos: string[];
}

export type PlaylistLists = Pick<PlaylistDoc, 'items' | 'images' | 'videos'>;

/** The only code that reads or writes playlists in the store. */
export class PlaylistsRepository {
  private readonly playlists: Collection<PlaylistDoc>;

  constructor(store: Store) {
    this.playlists = store.collection<PlaylistDoc>('playlists');
  }

  list(): Promise<PlaylistDoc[]> {
    return this.playlists.find({}, { sort: { createdAt: 1 } });
  }

  findById(id: string): Promise<PlaylistDoc | null> {
    return this.playlists.findById(id);
  }

  count(): Promise<number> {
    return this.playlists.count();
  }

  create(name: string, lists: PlaylistLists): Promise<PlaylistDoc> {
    return this.playlists.insertOne({ name, ...lists });
  }

  update(id: string, lists: PlaylistLists): Promise<PlaylistDoc | null> {
    return this.playlists.updateById(id, lists);
  }

  delete(id: string): Promise<boolean> {
    return this.playlists.deleteById(id);
  }
}

/** Whitelists what leaves the server. */
export function toPlaylist(doc: PlaylistDoc): Playlist {
  return {
    _id: doc._id,
    name: doc.name,
    items: doc.items ?? [],
    images: doc.images ?? [],
    videos: doc.videos ?? [],
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}
