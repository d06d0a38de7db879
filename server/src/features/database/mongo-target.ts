import { mongoInspector } from '../../store/mongo/inspector';
import { openMongoStore } from '../../store/mongo/store';
import type { Store } from '../../store/store';
import { probePort } from './connection-words';

export interface TargetSummary {
  collections: number;
  documents: number;
  /** Databases on that server the user may see. */
  databases: string[];
}

/**
 * The one module that connects to a MongoDB other than the live store: the console's
 * Test Connection and the target of a Save. Tests pass another implementation of this port.
 */
export interface TargetConnector {
  /** Connects within the console's time limit and describes `database` (0 and 0 when it does not exist yet). */
  test(uri: string, database: string): Promise<TargetSummary>;
  open(uri: string): Promise<Store>;
}

export const mongoTargets: TargetConnector = {
  async test(uri, database) {
    const { hostname, port } = new URL(uri);
    // A refused port fails here at once rather than after the driver's 5-second wait.
    await probePort(hostname.replace(/^\[|\]$/g, ''), Number(port || 27017));
    const inspector = mongoInspector(uri);
    try {
      const databases = await inspector.databaseNames();
      // MongoDB makes a database when something is first written to it: a new name is fine.
      const stats = databases.includes(database) ? await inspector.databaseStats(database) : null;
      return { collections: stats?.collections ?? 0, documents: stats?.objects ?? 0, databases };
    } finally {
      await inspector.close();
    }
  },
  open: (uri) => openMongoStore(uri),
};
