import {
  createPlaylistBody,
  type DeletePlaylistResponse,
  type PlaylistResponse,
  type PlaylistsResponse,
  playlistIdParam,
  updatePlaylistBody,
} from '@common/schemas/playlist';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { parseInput } from '../../lib/validate';
import { type PlaylistsRepository, toPlaylist } from './playlists.repository';
import type { PlaylistsService } from './playlists.service';

/** /api/playlists: every call is for administrators only. */
export function playlistRoutes(
  playlists: PlaylistsService,
  repository: PlaylistsRepository,
  ctx: Pick<AppContext, 'guards' | 'activity'>,
) {
  return async (app: FastifyInstance) => {
    const current = async (id: string) => {
      const doc = await repository.findById(id);
      return doc ? toPlaylist(doc) : null;
    };
    const count = (p: { images: string[]; videos: string[] }) => p.images.length + p.videos.length;
    app.addHook('onRequest', ctx.guards.requireAdmin);

    // The list of playlists is the answer itself: an array, with no success wrapper.
    app.get<{ Reply: PlaylistsResponse }>('/', async () => (await playlists.list()).map(toPlaylist));

    app.post<{ Reply: PlaylistResponse }>('/', async (request, reply) => {
      const { name, ...lists } = parseInput(createPlaylistBody, request.body);
      const created = toPlaylist(await playlists.create(name, lists));
      await ctx.activity.record(request, {
        kind: 'playlist.created',
        summary: `Created the playlist "${created.name}" (${count(created)} items)`,
        after: created,
      });
      return reply.code(201).send({ success: true, data: created });
    });

    app.put<{ Reply: PlaylistResponse }>('/:id', async (request) => {
      const { id } = parseInput(playlistIdParam, request.params);
      const before = await current(id);
      const updated = toPlaylist(await playlists.update(id, parseInput(updatePlaylistBody, request.body)));
      await ctx.activity.record(request, {
        kind: 'playlist.updated',
        summary: `Saved the playlist "${updated.name}" (${count(updated)} items)`,
        before,
        after: updated,
      });
      return { success: true, data: updated };
    });

    app.delete<{ Reply: DeletePlaylistResponse }>('/:id', async (request) => {
      const { id } = parseInput(playlistIdParam, request.params);
      const before = await current(id);
      await playlists.delete(id);
      await ctx.activity.record(request, {
        kind: 'playlist.deleted',
        summary: `Deleted the playlist "${before?.name ?? id}"`,
        before,
      });
      return { success: true, message: 'Playlist deleted.' };
    });
  };
}
