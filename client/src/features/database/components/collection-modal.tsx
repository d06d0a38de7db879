import type { CollectionInfo } from '@common/schemas/database';
import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { EXPLORER_DOCUMENTS, useCollectionDocuments } from '../api';
import { formatBytes, formatCount } from '../format';

export interface CollectionModalProps {
  database: string;
  collection: CollectionInfo | null;
  onClose: () => void;
}

/** A collection up close: its figures, its indexes and its first documents (secrets redacted by the server). */
export function CollectionModal({ database, collection, onClose }: CollectionModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const documents = useCollectionDocuments(database, collection?.name ?? null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (collection && !element.open) element.showModal();
    else if (!collection && element.open) element.close();
  }, [collection]);

  const page = documents.data;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes a native dialog; the click is for its backdrop only.
    <dialog
      ref={dialog}
      aria-labelledby="collection-title"
      onClose={onClose}
      // A click on the backdrop (the dialog itself, outside its content) closes it.
      onClick={(event) => event.target === dialog.current && onClose()}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(56rem,calc(100vw-1.5rem))] overflow-hidden rounded-2xl border border-white/10 bg-stone-900/95 p-0 text-stone-100 shadow-2xl shadow-black/60 backdrop:bg-black/70 backdrop:backdrop-blur-sm"
    >
      {collection && (
        <div className="flex max-h-[calc(100dvh-2rem)] flex-col">
          <header className="flex items-center justify-between gap-3 border-b border-white/10 px-5 py-4 sm:px-6">
            <h2 id="collection-title" className="min-w-0 truncate text-xl font-semibold text-white">
              {collection.name}
            </h2>
            <Button variant="ghost" onClick={onClose} aria-label="Close">
              ✕
            </Button>
          </header>
          <div className="space-y-6 overflow-y-auto px-5 py-5 sm:px-6">
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {[
                ['Documents', formatCount(collection.count)],
                ['Size', formatBytes(collection.size)],
                ['Storage', formatBytes(collection.storageSize)],
                ['Avg Size', formatBytes(collection.avgObjSize)],
              ].map(([label, value]) => (
                <div key={label} className="rounded-lg bg-black/30 px-3 py-2">
                  <dt className="text-xs uppercase tracking-wider text-stone-400">{label}</dt>
                  <dd className="mt-0.5 font-semibold text-white tabular-nums">{value}</dd>
                </div>
              ))}
            </dl>

            <section>
              <h3 className="font-semibold text-white">Indexes</h3>
              {/* No fixed minimum width: on a phone the long names and keys wrap instead of being cut. */}
              <div className="mt-2 rounded-lg border border-white/10">
                <table className="w-full table-fixed text-left text-sm">
                  <thead className="bg-white/5 text-xs uppercase tracking-wider text-stone-400">
                    <tr>
                      <th className="px-2 py-2 font-medium sm:px-3">Name</th>
                      <th className="px-2 py-2 font-medium sm:px-3">Keys</th>
                      <th className="w-16 px-2 py-2 font-medium sm:w-20 sm:px-3">Unique</th>
                      <th className="w-16 px-2 py-2 font-medium sm:w-20 sm:px-3">Sparse</th>
                    </tr>
                  </thead>
                  <tbody>
                    {collection.indexes.map((index) => (
                      <tr key={index.name} className="border-t border-white/5">
                        <td className="break-all px-2 py-2 font-mono text-xs sm:px-3">{index.name}</td>
                        <td className="break-all px-2 py-2 font-mono text-xs sm:px-3">
                          {JSON.stringify(index.keys)}
                        </td>
                        <td className="px-2 py-2 sm:px-3">{index.unique ? 'Yes' : 'No'}</td>
                        <td className="px-2 py-2 sm:px-3">{index.sparse ? 'Yes' : 'No'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>

            <section aria-busy={documents.isFetching}>
              <h3 className="font-semibold text-white">
                Documents ({formatCount(page?.pagination.total ?? collection.count)} total, showing first{' '}
                {EXPLORER_DOCUMENTS})
              </h3>
              {documents.isError ? (
                <p role="alert" className="mt-2 text-sm text-red-300">
                  Could not load the documents: {(documents.error as Error).message}
                </p>
              ) : !page ? (
                <p className="mt-2 text-sm text-stone-400">Loading documents…</p>
              ) : page.documents.length === 0 ? (
                <p className="mt-2 text-sm text-stone-400">No documents found in this collection</p>
              ) : (
                <ol className="mt-3 space-y-3">
                  {page.documents.map((doc, i) => (
                    <li key={String(doc._id ?? i)} className="rounded-lg border border-white/10 bg-black/40">
                      <p className="flex flex-wrap items-baseline gap-x-3 border-b border-white/5 px-3 py-1.5 text-xs">
                        <span className="font-semibold text-accent-300">Document {i + 1}</span>
                        <span className="break-all font-mono text-stone-400">
                          _id: {String(doc._id ?? '—')}
                        </span>
                      </p>
                      <pre className="whitespace-pre-wrap break-all px-3 py-2 font-mono text-xs leading-relaxed text-stone-200">
                        {JSON.stringify(doc, null, 2)}
                      </pre>
                    </li>
                  ))}
                </ol>
              )}
            </section>
          </div>
        </div>
      )}
    </dialog>
  );
}
