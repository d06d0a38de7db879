import type { CollectionInfo, DatabaseStats, StoreKind } from '@common/schemas/database';

/** What the server behind a store says about itself. */
export interface ServerInfo {
  kind: StoreKind;
  version: string;
  /** Seconds; null when the server does not say (a MongoDB user without the clusterMonitor role). */
  uptimeSeconds: number | null;
  host: string;
  port: number | null;
  /** The database this store keeps the site's data in. */
  database: string;
  /** A folder for the embedded store, host:port/database for MongoDB. */
  location: string;
}

export interface DocumentsPage {
  total: number;
  documents: Array<Record<string, unknown>>;
}

/**
 * A store's read-only description of itself, for the console's database panel and explorer.
 * Nothing here writes. Unknown database or collection names answer null, never an empty success.
 */
export interface StoreInspector {
  server(): Promise<ServerInfo>;
  databaseNames(): Promise<string[]>;
  databaseStats(database: string): Promise<DatabaseStats | null>;
  collections(database: string): Promise<CollectionInfo[] | null>;
  /** The first `limit` documents in the store's natural order, as stored (secrets included). */
  documents(database: string, collection: string, limit: number): Promise<DocumentsPage | null>;
}
