import { type Playlist, playlistItemCount } from '@common/schemas/playlist';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../../components/ui/button';
import { Card } from '../../../../components/ui/card';
import { TextField } from '../../../../components/ui/text-field';

export interface PlaylistsCardProps {
  playlists: Playlist[] | undefined;
  loadFailed: boolean;
  selectedId: string | null;
  activeId: string | null;
  onSelect: (playlist: Playlist) => void;
  onDelete: (playlist: Playlist) => void;
  onCreate: (name: string) => Promise<boolean>;
}

export function PlaylistsCard(props: PlaylistsCardProps) {
  const { playlists, loadFailed, selectedId, activeId, onSelect, onDelete, onCreate } = props;
  const [name, setName] = useState('');
  const add = async (event: FormEvent) => {
    event.preventDefault();
    // A blank name is silently ignored.
    if (!name.trim()) return;
    if (await onCreate(name.trim())) setName('');
  };

  return (
    <Card className="space-y-5">
      <h2 className="text-lg font-semibold text-white">Playlists</h2>
      {loadFailed ? (
        <p role="alert" className="text-sm text-red-300">
          Error loading playlists.
        </p>
      ) : playlists === undefined ? (
        <p className="text-sm text-stone-400">Loading playlists…</p>
      ) : playlists.length === 0 ? (
        <p className="text-sm text-stone-400">No playlists yet. Name one below to start.</p>
      ) : (
        <ul className="space-y-2" aria-label="Playlists">
          {playlists.map((playlist) => {
            const selected = playlist._id === selectedId;
            const count = playlistItemCount(playlist);
            return (
              <li
                key={playlist._id}
                className={`flex items-center gap-2 rounded-lg border p-1 ${
                  selected ? 'border-accent-400/60 bg-accent-400/10' : 'border-white/10 bg-white/5'
                }`}
              >
                <button
                  type="button"
                  aria-pressed={selected}
                  onClick={() => onSelect(playlist)}
                  className="min-w-0 flex-1 rounded-md px-3 py-2 text-left hover:bg-white/5"
                >
                  <span className="block truncate font-medium text-white">{playlist.name}</span>
                  <span className="text-xs text-stone-400">
                    {count} {count === 1 ? 'item' : 'items'}
                    {playlist._id === activeId && <span className="ml-2 text-accent-300">● Active</span>}
                  </span>
                </button>
                <Button
                  variant="ghost"
                  className="px-3 py-2 text-red-300 hover:bg-red-500/10 hover:text-red-200"
                  aria-label={`Delete playlist ${playlist.name}`}
                  onClick={() => onDelete(playlist)}
                >
                  Delete
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <form onSubmit={add} className="flex items-end gap-2 border-t border-white/10 pt-4">
        <TextField
          label="New playlist name"
          className="flex-1"
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
        />
        <Button type="submit">Add Playlist</Button>
      </form>
    </Card>
  );
}
