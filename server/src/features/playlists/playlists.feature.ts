import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import { PlaylistsRepository } from './playlists.repository';
import { playlistRoutes } from './playlists.routes';
import { PlaylistsService } from './playlists.service';

/** `/api/playlists`: the slideshow's playlists, for administrators; a change reaches the public slides. */
export async function createPlaylistsFeature(ctx: AppContext): Promise<Feature> {
  const repository = new PlaylistsRepository(ctx.store);
  const playlists = new PlaylistsService(repository, ctx.slideshowSettings, ctx.mediaFolder);
  return {
    name: 'playlists',
    routes: [{ prefix: '/api/playlists', plugin: playlistRoutes(playlists, repository, ctx) }],
  };
}
