import { formatMoment } from '@common/dates';
import type { NginxHistory, NginxHistoryEntry } from '@common/schemas/nginx';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfigDiff } from './config-diff';

export interface HistoryCardProps {
  history: NginxHistory | undefined;
  loadFailed: boolean;
  busy: boolean;
  onRestore: (entry: NginxHistoryEntry) => void;
}

const when = (iso: string) => formatMoment(iso);

/** The last 20 saved versions, each comparable with the live file and restorable. */
export function HistoryCard({ history, loadFailed, busy, onRestore }: HistoryCardProps) {
  const [openId, setOpenId] = useState<string | null>(null);
  const entries = history?.entries ?? [];
  const current = history?.current ?? null;

  return (
    <Card className="self-start">
      <h2 className="text-lg font-semibold text-white">Saved versions</h2>
      <p className="mt-1 text-sm text-stone-400">
        The last 20 saves. Open one to see what restoring it would change in the live file.
      </p>
      {loadFailed ? (
        <p role="alert" className="mt-4 text-sm text-red-200">
          Could not load the saved versions.
        </p>
      ) : !history ? (
        <p className="mt-4 text-sm text-stone-400">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="mt-4 text-sm text-stone-400">No saved versions yet: each save will be kept here.</p>
      ) : (
        <ol className="mt-4 space-y-2" aria-label="Saved versions">
          {entries.map((entry) => {
            // After a restore two versions hold the same file: only the newest (the restore) is Live.
            const live = entry.id === entries.find((candidate) => candidate.rendered === current)?.id;
            const open = openId === entry.id;
            return (
              <li key={entry.id} className="rounded-xl border border-white/10 bg-black/20">
                <button
                  type="button"
                  aria-expanded={open}
                  onClick={() => setOpenId(open ? null : entry.id)}
                  className="flex w-full flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-xl px-4 py-3 text-left hover:bg-white/5"
                >
                  <span className="min-w-0">
                    <span className="block text-sm font-medium text-stone-100">{when(entry.savedAt)}</span>
                    <span className="block truncate text-xs text-stone-400">
                      {entry.savedBy}
                      {entry.restoredFrom ? ' · restored an earlier version' : ''}
                    </span>
                  </span>
                  {live && (
                    <span className="rounded-full border border-emerald-400/40 bg-emerald-400/15 px-2 py-0.5 text-xs font-semibold text-emerald-200">
                      Live
                    </span>
                  )}
                </button>
                {open && (
                  <div className="space-y-3 border-t border-white/10 px-4 py-3">
                    {current === null ? (
                      <p className="text-sm text-stone-400">There is no live file to compare with.</p>
                    ) : (
                      <ConfigDiff from={current} to={entry.rendered} />
                    )}
                    {!live && (
                      <Button variant="secondary" disabled={busy} onClick={() => onRestore(entry)}>
                        Restore this version
                      </Button>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}
