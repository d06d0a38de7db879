import {
  APP_SERVER_DEFAULTS,
  type AppServerConfigBody,
  type AppServerConfigView,
  type AppServerField,
  type AppServerSettings,
  type AppServerStatus,
  RESTART_FIELDS,
} from '@common/schemas/app-server';
import type { AppContext } from '../../app-context';
import { pinoLevelOf } from '../../config';
import type { LiveSettings } from '../../http/live-settings';
import { AppError } from '../../lib/app-error';
import { readSavedSettings, writeSavedSettings } from './app-server-file';

/**
 * The Node.js panel: settings saved under DATA_DIR, applied at once where that is possible
 * (CORS, request size, rate limit, log level) and at the next start otherwise (port,
 * environment, session secret). A field fixed by an environment variable is never changed.
 * The file is the one copy every server process of this machine reads: a save starts from what
 * it holds now (never from this process's copy, which another process may have outdated), and the
 * other processes reload it within a second (SharedChanges' 'app-server' topic).
 */
export class NodejsService {
  private saved: Partial<AppServerSettings>;
  private saving: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: Pick<AppContext, 'config' | 'log' | 'requestRestart' | 'changes'>,
    private readonly live: LiveSettings,
  ) {
    this.saved = readSavedSettings(ctx.config.dataDir).values;
    ctx.changes.on('app-server', () => this.reload());
  }

  /** Another server process saved the settings: the live ones apply here too, from the file. */
  private reload(): void {
    this.saved = readSavedSettings(this.ctx.config.dataDir).values;
    this.apply();
  }

  private fixed(field: AppServerField): boolean {
    return field in this.ctx.config.fixedByEnv;
  }

  /** What the server runs with after the next start: environment, else saved, else default. */
  private effective(): AppServerSettings {
    const result = { ...APP_SERVER_DEFAULTS, ...this.saved };
    for (const field of Object.keys(this.ctx.config.fixedByEnv) as AppServerField[]) {
      (result as Record<string, unknown>)[field] = this.ctx.config.appServer[field];
    }
    return result;
  }

  view(): AppServerConfigView {
    // What the file holds now, whichever process saved it last.
    this.saved = readSavedSettings(this.ctx.config.dataDir).values;
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

  /** Saves the given fields (one save at a time) and applies the live ones at once. */
  save(body: AppServerConfigBody): Promise<{ config: AppServerConfigView; ignored: AppServerField[] }> {
    const run = this.saving.then(async () => {
      const ignored: AppServerField[] = [];
      // What the file holds now: another process may have saved since this one last read it.
      this.saved = readSavedSettings(this.ctx.config.dataDir).values;
      const next: Partial<AppServerSettings> = { ...this.saved };
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
      const changed = (Object.keys(next) as AppServerField[]).filter((f) => next[f] !== this.saved[f]);
      this.saved = next;
      this.apply();
      await this.ctx.changes.bump('app-server');
      this.ctx.log.info({ changed }, 'Application-server settings saved');
      return { config: this.view(), ignored };
    });
    this.saving = run.catch(() => undefined);
    return run;
  }

  /** Puts the live settings into force for the very next request. */
  private apply(): void {
    const effective = this.effective();
    this.live.update(effective);
    if (!this.fixed('logLevel')) this.ctx.log.level = pinoLevelOf(effective.logLevel);
  }

  status(): AppServerStatus {
    const memory = process.memoryUsage();
    const cpu = process.cpuUsage();
    return {
      uptime: Math.round(process.uptime() * 1000),
      memory: { heapUsed: memory.heapUsed, heapTotal: memory.heapTotal, rss: memory.rss },
      cpu: { user: cpu.user, system: cpu.system },
      version: process.version,
    };
  }

  async restart(): Promise<{ port: number; previousPort: number }> {
    const outcome = await this.ctx.requestRestart();
    if (!outcome.started) throw new AppError('UNAVAILABLE', outcome.message);
    return { port: outcome.port, previousPort: this.ctx.config.port };
  }
}
