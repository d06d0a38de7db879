import { createPlaylistBody, playlistIdParam, updatePlaylistBody } from '@common/schemas/playlist';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { parseInput } from '../../lib/validate';
import { PlaylistsRepository, toPlaylist } from './playlists.repository';
import { PlaylistsService } from './playlists.service';

/** /api/playlists: every call is for administrators only. */
export function playlistRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const playlists = new PlaylistsService(new PlaylistsRepository(ctx.store), ctx.sliderConfig);
    app.addHook('onRequest', ctx.guards.requireAdmin);

    // SPEC section 7 reads "list of playlists": the answer is the array itself.
    app.get('/', async () => (await playlists.list()).map(toPlaylist));

    app.post('/', async (request, reply) => {
      const { name, ...lists } = parseInput(createPlaylistBody, request.body);
      const created = await playlists.create(name, lists);
      return reply.code(201).send({ success: true, data: toPlaylist(created) });
    });

    app.put('/:id', async (request) => {
      const { id } = parseInput(playlistIdParam, request.params);
      const updated = await playlists.update(id, parseInput(updatePlaylistBody, request.body));
      return { success: true, data: toPlaylist(updated) };
    });

    app.delete('/:id', async (request) => {
      const { id } = parseInput(playlistIdParam, request.params);
      await playlists.delete(id);
      return { success: true, message: 'Playlist deleted.' };
    });
  };
}
