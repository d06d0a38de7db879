import {
  APP_SERVER_DEFAULTS,
  type AppServerConfigBody,
  type AppServerConfigView,
  type AppServerField,
  type AppServerSettings,
  type AppServerStatus,
  RESTART_FIELDS,
  type WorkerStatus,
} from '@common/schemas/app-server';
import type { AppContext } from '../../app-context';
import type { LiveSettings } from '../../http/live-settings';
import { AppError } from '../../lib/app-error';
import type { SiteProcesses } from '../../process/protocol';
import { ownStatus } from '../../process/supervisor-link';
import { readSavedSettings, writeSavedSettings } from '../../settings/app-server-file';
import { pinoLevelOf } from '../../settings/config';

const SAVE_LEASE = 'app-server-settings';
const SAVE_BUSY = 'Another save of these settings is under way. Please try again.';

/**
 * The Node.js panel: settings saved under DATA_DIR, applied at once where that is possible
 * (CORS, request size, rate limit, log level) and at the next start otherwise (port,
 * environment, session secret). A field fixed by an environment variable is never changed.
 * The file is the one copy every server process of this machine reads (see saved()); after a
 * save the other processes apply its live settings within a second (SharedChanges' 'app-server').
 */
export class AppServerService {
  private saving: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: Pick<AppContext, 'config' | 'log' | 'requestRestart' | 'changes' | 'leases'>,
    private readonly live: LiveSettings,
    /** Every worker's figures, from `npm start`'s supervisor; absent when the server runs alone. */
    private readonly siteProcesses?: () => Promise<SiteProcesses | null>,
  ) {
    // Another server process saved the settings: the live ones apply here too, from the file.
    ctx.changes.on('app-server', () => this.apply());
  }

  /**
   * What is saved now. Read from the file every time: another worker of the site may have saved
   * since, and a copy kept here would write its change back over theirs.
   */
  private saved(): Partial<AppServerSettings> {
    return readSavedSettings(this.ctx.config.dataDir).values;
  }

  private fixed(field: AppServerField): boolean {
    return field in this.ctx.config.fixedByEnv;
  }

  /** What the server runs with after the next start: environment, else saved, else default. */
  private effective(): AppServerSettings {
    const result = { ...APP_SERVER_DEFAULTS, ...this.saved() };
    for (const field of Object.keys(this.ctx.config.fixedByEnv) as AppServerField[]) {
      (result as Record<string, unknown>)[field] = this.ctx.config.appServer[field];
    }
    return result;
  }

  view(): AppServerConfigView {
    const effective = this.effective();
    const running = this.ctx.config.appServer;
    return {
      ...effective,
      sessionSecret: '',
      sessionSecretSet: effective.sessionSecret !== '',
      fixedByEnvironment: { ...this.ctx.config.fixedByEnv },
      pendingRestart: RESTART_FIELDS.filter((field) => effective[field] !== running[field]),
    };
  }

  /**
   * Saves the given fields (one save at a time, across every worker and machine: a lease in the
   * store covers the file's read and write) and applies the live ones at once.
   */
  save(body: AppServerConfigBody): Promise<{ config: AppServerConfigView; ignored: AppServerField[] }> {
    const run = this.saving.then(() =>
      this.ctx.leases.run(SAVE_LEASE, SAVE_BUSY, async () => {
        const ignored: AppServerField[] = [];
        const before = this.saved();
        const next: Partial<AppServerSettings> = { ...before };
        for (const [field, value] of Object.entries(body) as Array<[AppServerField, unknown]>) {
          if (value === undefined) continue;
          if (this.fixed(field)) {
            // The secret is never compared: the answer must not tell whether a guess was right.
            const same = field !== 'sessionSecret' && value === this.ctx.config.appServer[field];
            if (value !== '' && !same) ignored.push(field);
            continue;
          }
          // A blank secret keeps the current one.
          if (field === 'sessionSecret' && value === '') continue;
          (next as Record<string, unknown>)[field] = value;
        }
        try {
          await writeSavedSettings(this.ctx.config.dataDir, next);
        } catch (error) {
          this.ctx.log.error({ err: error }, 'Could not save the application-server settings');
          throw new AppError('INTERNAL', 'The settings could not be written to disk.');
        }
        const changed = (Object.keys(next) as AppServerField[]).filter((f) => next[f] !== before[f]);
        this.apply();
        await this.ctx.changes.bump('app-server');
        this.ctx.log.info({ changed }, 'Application-server settings saved');
        return { config: this.view(), ignored };
      }),
    );
    this.saving = run.catch(() => undefined);
    return run;
  }

  /** Puts the live settings into force for the very next request. */
  private apply(): void {
    const effective = this.effective();
    this.live.update(effective);
    if (!this.fixed('logLevel')) this.ctx.log.level = pinoLevelOf(effective.logLevel);
  }

  /** The site's totals and each worker's figures (this process alone when not under the supervisor). */
  async status(): Promise<AppServerStatus> {
    const site = await this.siteProcesses?.();
    const workers = site?.workers.length ? site.workers : [ownStatus()];
    const measured = workers.filter((worker): worker is WorkerStatus => 'memory' in worker);
    const sum = (pick: (worker: WorkerStatus) => number) => measured.reduce((total, w) => total + pick(w), 0);
    return {
      uptime: Math.max(0, ...measured.map((worker) => worker.uptime)),
      memory: {
        heapUsed: sum((w) => w.memory.heapUsed),
        heapTotal: sum((w) => w.memory.heapTotal),
        rss: sum((w) => w.memory.rss),
      },
      cpu: { user: sum((w) => w.cpu.user), system: sum((w) => w.cpu.system) },
      version: process.version,
      answeredBy: process.pid,
      workers,
      ...(site ? { supervisor: site.supervisor } : {}),
    };
  }

  async restart(): Promise<{ port: number; previousPort: number }> {
    const outcome = await this.ctx.requestRestart();
    if (!outcome.started) throw new AppError('UNAVAILABLE', outcome.message);
    return { port: outcome.port, previousPort: this.ctx.config.port };
  }
}
