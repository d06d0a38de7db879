import type { CollectionInfo } from '@common/schemas/database';
import { formatBytes, formatCount } from '../format';

/** A card names its first 3 indexes and counts the rest ('+N more'). */
const SHOWN_INDEXES = 3;

export function CollectionCard({ collection, onOpen }: { collection: CollectionInfo; onOpen: () => void }) {
  const { indexes } = collection;
  const more = indexes.length - SHOWN_INDEXES;
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        className="h-full w-full rounded-2xl border border-white/10 bg-stone-950/60 p-5 text-left shadow-xl shadow-black/30 backdrop-blur-xl transition-colors hover:border-accent-400/40 hover:bg-stone-900/70"
      >
        <span className="block truncate text-lg font-semibold text-white">{collection.name}</span>
        <dl className="mt-3 grid grid-cols-3 gap-2 text-sm">
          <Figure label="Documents" value={formatCount(collection.count)} />
          <Figure label="Size" value={formatBytes(collection.size)} />
          <Figure label="Avg Size" value={formatBytes(collection.avgObjSize)} />
        </dl>
        <p className="mt-4 text-xs uppercase tracking-wider text-stone-400">
          {indexes.length} {indexes.length === 1 ? 'index' : 'indexes'}
        </p>
        <span className="mt-2 flex flex-wrap gap-1.5">
          {indexes.slice(0, SHOWN_INDEXES).map((index) => (
            <span
              key={index.name}
              className="rounded-md bg-white/10 px-2 py-0.5 font-mono text-xs text-stone-200"
            >
              {index.name}
            </span>
          ))}
          {more > 0 && (
            <span className="rounded-md bg-accent-400/20 px-2 py-0.5 text-xs font-semibold text-accent-300">
              +{more} more
            </span>
          )}
        </span>
      </button>
    </li>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-stone-400">{label}</dt>
      <dd className="truncate font-semibold text-white tabular-nums">{value}</dd>
    </div>
  );
}
