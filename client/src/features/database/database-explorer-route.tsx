import type { CollectionInfo } from '@common/schemas/database';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { INPUT_CLASS } from '../../components/ui/text-field';
import { useDatabaseDetails } from './api';
import { CollectionCard } from './components/collection-card';
import { CollectionModal } from './components/collection-modal';
import { formatBytes, formatCount } from './format';

/** The database explorer at /admin/database/{dbName} (SPEC "Database explorer"). Read-only. */
export function Component() {
  const { dbName = '' } = useParams();
  const details = useDatabaseDetails(dbName);
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<CollectionInfo | null>(null);
  const database = details.data;
  const needle = filter.trim().toLowerCase();
  const shown = database?.collections.filter((c) => c.name.toLowerCase().includes(needle)) ?? [];

  return (
    <div className="min-h-screen bg-stone-950/70">
      <div className="mx-auto max-w-6xl space-y-6 p-4 sm:p-6 lg:p-10">
        <header className="flex flex-wrap items-center gap-3">
          <Link
            to="/admin/dashboard"
            className="rounded-lg border border-white/15 px-3 py-2 text-sm text-stone-200 hover:bg-white/10"
          >
            ← Back to dashboard
          </Link>
          <div className="order-last w-full min-w-0 sm:order-none sm:w-auto sm:flex-1">
            <p className="text-xs uppercase tracking-wider text-stone-400">Database explorer</p>
            <h1 className="text-2xl font-semibold text-white [overflow-wrap:anywhere] sm:text-3xl">
              {dbName}
            </h1>
          </div>
          <Button
            variant="secondary"
            className="ml-auto sm:ml-0"
            onClick={() => void details.refetch()}
            disabled={details.isFetching}
          >
            {details.isFetching ? 'Refreshing...' : 'Refresh'}
          </Button>
        </header>

        {details.isError ? (
          <p role="alert" className="rounded-lg border border-red-500/40 bg-red-500/15 p-4 text-red-200">
            {(details.error as Error).message || 'Could not load this database.'}
          </p>
        ) : !database ? (
          <p className="text-stone-400">Loading…</p>
        ) : (
          <>
            <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
              {[
                ['Collections', formatCount(database.stats.collections)],
                ['Documents', formatCount(database.stats.objects)],
                ['Data Size', formatBytes(database.stats.dataSize)],
                ['Indexes', formatCount(database.stats.indexes)],
              ].map(([label, value]) => (
                <li
                  key={label}
                  aria-label={label}
                  className="rounded-2xl border border-white/10 bg-gradient-to-br from-accent-400/15 to-stone-950/70 p-4 shadow-xl shadow-black/30 backdrop-blur-xl sm:p-5"
                >
                  <p className="text-xs font-medium uppercase tracking-wider text-stone-300">{label}</p>
                  <p className="mt-2 font-display text-2xl text-white tabular-nums sm:text-3xl">{value}</p>
                </li>
              ))}
            </ul>

            <div>
              <label htmlFor="collection-filter" className="sr-only">
                Filter collections
              </label>
              <input
                id="collection-filter"
                type="search"
                placeholder="Filter collections by name…"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                className={`${INPUT_CLASS} sm:max-w-sm`}
              />
            </div>

            {shown.length === 0 ? (
              <p className="text-stone-400">
                {database.collections.length === 0
                  ? 'This database has no collections.'
                  : 'No collection matches.'}
              </p>
            ) : (
              <ul aria-label="Collection list" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {shown.map((collection) => (
                  <CollectionCard
                    key={collection.name}
                    collection={collection}
                    onOpen={() => setOpen(collection)}
                  />
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      <CollectionModal database={dbName} collection={open} onClose={() => setOpen(null)} />
    </div>
  );
}
