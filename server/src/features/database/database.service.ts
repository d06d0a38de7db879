import type {
  CollectionResult,
  ConnectionTestResponse,
  DatabaseConfigBody,
  DatabaseConfigResponse,
  DatabaseDetail,
  DatabaseStats,
  DatabaseStatus,
} from '@common/schemas/database';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import { redactDocument } from '../../lib/redact';
import type { RestartOutcome } from '../../process/protocol';
import { type MongoSettings, mongoUri, readStoreSettings } from '../../settings/store-settings';
import type { Store } from '../../store/store';
import type { UserDoc } from '../users/users.repository';
import { plainReason } from './connection-words';
import { moveTo } from './database-move';
import type { TargetConnector } from './mongo-target';

export interface DatabaseServiceDeps {
  store: Store;
  dataDir: string;
  /** MONGODB_URI from the environment, which decides the store whatever is saved. */
  environmentUri?: string;
  targets: TargetConnector;
  requestRestart: () => Promise<RestartOutcome>;
  log: FastifyBaseLogger;
}

const notFound = (what: string) => new AppError('NOT_FOUND', what);
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The console's database panel: what the store holds, and the move to a MongoDB server. */
export class DatabaseService {
  /** Set once writes stop for a move; the status says so until the restart. */
  private moving: string | null = null;
  /** Set with `moving` by a save, cleared when the restart could not start. */
  private restarting = false;
  private saving = false;
  private readonly inspector: Store['inspector'];

  constructor(private readonly deps: DatabaseServiceDeps) {
    this.inspector = deps.store.inspector;
  }

  async getConfig(): Promise<DatabaseConfigResponse> {
    const { mongodb } = await readStoreSettings(this.deps.dataDir);
    const { password, ...visible } = mongodb;
    return {
      success: true,
      config: { ...visible, passwordSet: password.length > 0 },
      store: this.deps.store.kind,
      environmentOverride: Boolean(this.deps.environmentUri),
    };
  }

  async status(): Promise<DatabaseStatus> {
    const environmentOverride = Boolean(this.deps.environmentUri);
    try {
      const info = await this.inspector.server();
      // The embedded store's version already names it: "SQLite 3.53.2".
      const where = info.kind === 'embedded' ? info.version : `MongoDB ${info.version}`;
      const { kind, uptimeSeconds, ...rest } = info;
      return {
        connected: true,
        restarting: this.restarting,
        message:
          this.moving ??
          `Connected: ${where} at ${info.location}${environmentOverride ? ' (set by MONGODB_URI)' : ''}`,
        stats: { ...rest, store: kind, uptime: uptimeSeconds, environmentOverride },
      };
    } catch (error) {
      const unknown = { database: '', host: '', port: null, version: '', uptime: null, location: '' };
      return {
        connected: false,
        restarting: this.restarting,
        message: `Connection failed: ${reasonOf(error)}`,
        stats: { ...unknown, store: this.deps.store.kind, environmentOverride },
      };
    }
  }

  async databases(): Promise<Array<{ name: string }>> {
    return (await this.inspector.databaseNames()).map((name) => ({ name }));
  }

  async databaseStats(name: string): Promise<DatabaseStats> {
    const stats = await this.inspector.databaseStats(name);
    if (!stats) throw notFound(`Database "${name}" was not found.`);
    return stats;
  }

  async details(name: string): Promise<DatabaseDetail> {
    const collections = await this.inspector.collections(name);
    if (!collections) throw notFound(`Database "${name}" was not found.`);
    const objects = collections.reduce((sum, c) => sum + c.count, 0);
    const dataSize = collections.reduce((sum, c) => sum + c.size, 0);
    return {
      name,
      stats: {
        collections: collections.length,
        objects,
        dataSize,
        storageSize: collections.reduce((sum, c) => sum + c.storageSize, 0),
        indexes: collections.reduce((sum, c) => sum + c.indexes.length, 0),
        avgObjSize: objects ? Math.round(dataSize / objects) : 0,
      },
      collections,
    };
  }

  async collection(database: string, name: string, limit: number): Promise<CollectionResult> {
    await this.databaseOrThrow(database);
    const page = await this.inspector.documents(database, name, limit);
    if (!page) throw notFound(`Collection "${name}" was not found in database "${database}".`);
    return {
      name,
      documents: page.documents.map(redactDocument),
      pagination: { total: page.total, limit, shown: page.documents.length },
    };
  }

  /** Connects with the form's values; saves nothing. */
  async testConnection(body: DatabaseConfigBody): Promise<ConnectionTestResponse> {
    const settings = await this.settingsFrom(body);
    try {
      const found = await this.deps.targets.test(mongoUri(settings), settings.database);
      return {
        success: true,
        connected: true,
        message: `Connection successful! Found ${found.collections} collections and ${found.documents} documents.`,
        stats: { collections: found.collections, documents: found.documents },
        databases: found.databases,
      };
    } catch (error) {
      const { reason, detail } = plainReason(error, settings.host, settings.port);
      return { success: false, connected: false, message: `Connection test failed: ${reason}`, detail };
    }
  }

  /** Connects, copies this site into the target when it has no users, and restarts on it. */
  /**
   * `beforeMove` runs once the target answered and before any data is copied: what it writes
   * (the Activity entry) is copied along, so it survives on the new store.
   */
  async saveConfig(
    body: DatabaseConfigBody,
    admin: UserDoc,
    beforeMove: () => Promise<void> = async () => {},
  ) {
    if (this.deps.environmentUri) {
      throw new AppError(
        'CONFLICT',
        'MONGODB_URI is set in the environment, so it decides the database. Change or remove it there instead.',
      );
    }
    if (this.moving || this.saving)
      throw new AppError('CONFLICT', this.moving ?? 'Another save is under way.');
    this.saving = true;
    try {
      const settings = await this.settingsFrom(body);
      try {
        await this.deps.targets.test(mongoUri(settings), settings.database);
      } catch (error) {
        throw new AppError(
          'VALIDATION',
          `Connection failed: ${plainReason(error, settings.host, settings.port).reason}`,
        );
      }
      await beforeMove();
      this.moving = 'Moving to the new database: the server restarts on it in a moment.';
      this.restarting = true;
      const result = await moveTo(this.deps, settings, admin);
      // After the answer has gone out; the restart waits for requests under way to finish.
      setTimeout(() => void this.restartOnNewStore(), 100);
      return {
        success: true as const,
        message: 'MongoDB configuration saved successfully!',
        ...result,
        restarting: true,
      };
    } catch (error) {
      this.moving = null;
      this.restarting = false;
      throw error;
    } finally {
      this.saving = false;
    }
  }

  /** Writes stay paused until a restart: a server that cannot restart itself says what to do. */
  private async restartOnNewStore(): Promise<void> {
    const outcome = await this.deps.requestRestart();
    if (outcome.started) return;
    this.restarting = false;
    this.moving = `The site has moved to the new database, but the server could not restart (${outcome.message}). Restart it to finish the move.`;
    this.deps.log.error({ reason: outcome.message }, 'Moved to the new database but could not restart');
  }

  /**
   * The form's values. An empty password means the saved one (it is never sent out), but only
   * for the same user on the same server: pointed elsewhere, it would hand the saved password to
   * whatever answers there.
   */
  private async settingsFrom(body: DatabaseConfigBody): Promise<MongoSettings> {
    const { mongodb: saved } = await readStoreSettings(this.deps.dataDir);
    const sameLogin =
      body.authEnabled &&
      body.host === saved.host &&
      body.port === saved.port &&
      body.username === saved.username;
    const password = body.password || (sameLogin ? saved.password : '');
    return { ...body, password, username: body.authEnabled ? body.username : '' };
  }

  private async databaseOrThrow(name: string): Promise<void> {
    if (!(await this.inspector.databaseNames()).includes(name))
      throw notFound(`Database "${name}" was not found.`);
  }
}
