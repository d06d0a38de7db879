import type { LastScan, ScanDiscoveries } from '@common/schemas/media';
import { type Collection, DuplicateKeyError, type Store, type StoredDoc } from '../../store/store';

interface ScanDoc extends StoredDoc {
  basePath: string;
  timestamp: string;
  discoveries: ScanDiscoveries;
}

/**
 * The last scan of each base path, kept in the store so that it survives restarts and is the
 * same for every app process. Its timestamp versions media URLs (`?v=`) for cache-busting.
 */
export class MediaScansRepository {
  private readonly scans: Collection<ScanDoc>;

  constructor(store: Store) {
    this.scans = store.collection<ScanDoc>('media_scans');
  }

  async init(): Promise<void> {
    await this.scans.ensureIndex({ field: 'basePath', unique: true });
  }

  async last(basePath: string): Promise<LastScan | null> {
    const doc = await this.scans.findOne({ basePath });
    return doc ? { timestamp: doc.timestamp, discoveries: doc.discoveries } : null;
  }

  async record(basePath: string, scan: LastScan): Promise<void> {
    const changes = { timestamp: scan.timestamp, discoveries: scan.discoveries };
    const existing = await this.scans.findOne({ basePath });
    if (existing) {
      await this.scans.updateById(existing._id, changes);
      return;
    }
    try {
      await this.scans.insertOne({ basePath, ...changes });
    } catch (error) {
      // Two scans raced to create the record: the other one won, so update it instead.
      if (!(error instanceof DuplicateKeyError)) throw error;
      await this.scans.updateOne({ basePath }, changes);
    }
  }
}
