// The web-server panel's logic. Seams, in order: the refused field, the defaults, save (and the
// two certificate steps built on it: serveChallenges, installCertificate), restart, history and
// restore, then the reload, binary lookup, parsing and the one-change-at-a-time queue.
import { chmod, mkdir } from 'node:fs/promises';
import type { NginxConfig } from '@common/nginx-defaults';
import { NGINX_DEFAULTS, NGINX_FIELD_LABELS } from '@common/nginx-defaults';
import { type NginxHistory, type NginxStatusResponse, nginxConfigBody } from '@common/schemas/nginx';
import { pageSecurityHeaders } from '../../http/security-headers';
import { AppError } from '../../lib/app-error';
import type { Config } from '../../settings/config';
import { NginxBinary } from './nginx-binary';
import { ensureCertificate, swapCertificate } from './nginx-certificate';
import { NginxFiles } from './nginx-files';
import { configArgs, type NginxLayout, nginxLayout } from './nginx-layout';
import { processesOfLayout, readPid, stopProcesses } from './nginx-process';
import { reloadAndConfirm } from './nginx-reload';
import { checkStaticRoot } from './nginx-static-root';
import { readStatus } from './nginx-status';
import { NginxStore } from './nginx-store';
import { renderSite } from './nginx-template';

/** A refused field (and, for the proxy addresses, the places of those at fault): nothing has been written. */
export class NginxFieldError extends AppError {
  constructor(
    readonly field: keyof NginxConfig,
    message: string,
    readonly targets?: number[],
  ) {
    super('VALIDATION', message);
  }
}

export interface SaveResult {
  config: NginxConfig;
  /** Said beside the success message, e.g. that HTTPS runs on a trial certificate. */
  warning?: string;
}

type AppSettings = Pick<Config, 'port' | 'host' | 'dataDir' | 'clientDistDir' | 'mediaRoots' | 'nginx'>;

/**
 * The web-server panel's logic: settings in, one rendered server-block file out, tested by nginx
 * before it goes live and rolled back when nginx will not take it. One change at a time.
 */
export class NginxService {
  private readonly layout: NginxLayout;
  private readonly nginx: NginxBinary;
  private readonly files: NginxFiles;
  private readonly store: NginxStore;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly app: AppSettings) {
    this.layout = nginxLayout(app.nginx);
    this.nginx = new NginxBinary(app.nginx);
    this.files = new NginxFiles(this.layout, this.nginx);
    this.store = new NginxStore(this.layout.settingsFile, this.layout.historyFile);
  }

  /** SPEC defaults, with the proxy target following this app's own port. */
  defaults(): NginxConfig {
    return {
      ...NGINX_DEFAULTS,
      proxyPass: `http://${this.ownAddress()}`,
      staticRoot: this.app.clientDistDir,
    };
  }

  /** Where nginx, on this machine, reaches this instance: `host:port`. */
  private ownAddress(): string {
    const loopback = ['0.0.0.0', '::', ''].includes(this.app.host) ? '127.0.0.1' : this.app.host;
    const host = loopback.includes(':') ? `[${loopback}]` : loopback;
    return `${host}:${this.app.port}`;
  }

  async config(): Promise<NginxConfig> {
    return { ...this.defaults(), ...(await this.store.savedConfig()) };
  }

  status(): Promise<NginxStatusResponse> {
    return readStatus(this.layout, this.nginx);
  }

  /** Both save calls and a restore from history come through here. */
  save(body: unknown, savedBy: string, restoredFrom?: string): Promise<SaveResult> {
    // Inside the queue from the start: fields left out are filled from the config as saved last.
    return this.exclusive(() => this.saveNow(body, savedBy, restoredFrom));
  }

  /**
   * Before a certificate order: nginx runs and serves the challenge folder on plain HTTP for
   * `domain` (one of its server names). Saves the settings again when the live file lacks either.
   */
  async serveChallenges(domain: string, savedBy: string): Promise<void> {
    await mkdir(this.layout.challengeDir, { recursive: true });
    // nginx's workers (nobody, when started by root) read the tokens; they are public anyway.
    await chmod(this.layout.challengeDir, 0o755);
    const status = await this.status();
    if (status.state !== 'running') {
      throw new AppError(
        'CONFLICT',
        `nginx is not running: start it first (Start Nginx), as the certificate authority checks ${domain} through it.`,
      );
    }
    await this.exclusive(async () => {
      const config = await this.config();
      const live = (await this.files.liveSite()) ?? '';
      const named = config.serverName.split(' ').includes(domain);
      if (named && live.includes(this.layout.challengeDir)) return;
      await this.saveNow({ serverName: withName(config.serverName, domain) }, savedBy);
    });
  }

  /**
   * Installs an obtained certificate as cert.pem and key.pem are installed by hand, turns HTTPS on
   * and reloads nginx. Should nginx refuse it, the previous files come back and nothing changes.
   */
  installCertificate(
    pem: { cert: string; key: string; trial: boolean },
    domain: string,
    savedBy: string,
  ): Promise<SaveResult> {
    return this.exclusive(async () => {
      const config = await this.config();
      const putBack = await swapCertificate(this.layout.sslDir, pem);
      try {
        return await this.saveNow(
          { serverName: withName(config.serverName, domain), sslEnabled: true },
          savedBy,
        );
      } catch (error) {
        await putBack();
        throw error;
      }
    });
  }

  private async saveNow(body: unknown, savedBy: string, restoredFrom?: string): Promise<SaveResult> {
    const config = await this.parse(body);
    const binary = await this.binary();
    const certificate = config.sslEnabled
      ? await ensureCertificate(
          { cert: this.app.nginx.sslCert, key: this.app.nginx.sslKey },
          this.layout.sslDir,
          config.serverName,
        )
      : undefined;
    const rendered = renderSite({
      config,
      panelAddress: this.ownAddress(),
      listenAddress: this.app.nginx.listenAddress,
      ssl: certificate && { ...certificate, hsts: !certificate.selfSigned },
      pageHeaders: await pageSecurityHeaders(),
      challengeDir: this.layout.challengeDir,
    });
    await this.files.apply(binary, rendered, (master) => this.reload(binary, master));
    await this.store.record({ config, rendered, savedBy, ...(restoredFrom ? { restoredFrom } : {}) });
    return {
      config,
      warning: certificate?.selfSigned
        ? `HTTPS uses a self-signed or staging certificate, for a trial run (browsers will warn). ` +
          `Get one in the HTTPS certificate card, or put your own cert.pem and key.pem in ${this.layout.sslDir}.`
        : undefined,
    };
  }

  /**
   * Graceful reload when nginx runs (open connections finish), a start when it does not. Workers
   * left serving by a master that died are stopped first, so the port is free again for this
   * configuration; a port held by any other program is still refused with nginx's own words.
   */
  async restart(): Promise<'reloaded' | 'started'> {
    const binary = await this.binary();
    return this.exclusive(async () => {
      const found = await processesOfLayout(this.layout);
      if (found.orphans.length > 0) await stopProcesses(found.orphans);
      const pid = await readPid(this.layout.pidFile);
      if (pid && found.masters.includes(pid)) {
        await this.reload(binary, pid);
        return 'reloaded';
      }
      // A master that is not the pid file's (its file was removed or rewritten): stop it too.
      if (found.masters.length > 0) await stopProcesses([...found.masters, ...found.workers]);
      if (!(await this.files.siteExists())) {
        const config = await this.parse({});
        const site = renderSite({
          config,
          panelAddress: this.ownAddress(),
          listenAddress: this.app.nginx.listenAddress,
          pageHeaders: await pageSecurityHeaders(),
          challengeDir: this.layout.challengeDir,
        });
        await this.files.apply(binary, site);
      }
      await this.files.start(binary);
      return 'started';
    });
  }

  async history(): Promise<NginxHistory> {
    return { entries: await this.store.history(), current: await this.files.liveSite() };
  }

  async restore(id: string, savedBy: string): Promise<SaveResult> {
    const entry = (await this.store.history()).find((candidate) => candidate.id === id);
    if (!entry) throw new AppError('NOT_FOUND', 'That saved version is no longer in the history.');
    return this.save(entry.config, savedBy, entry.id);
  }

  private async reload(binary: string, master: number): Promise<void> {
    const outcome = await reloadAndConfirm(
      this.nginx,
      binary,
      configArgs(this.layout),
      master,
      this.layout.errorLog,
    );
    if (!outcome.ok) throw new AppError('CONFLICT', `nginx could not reload: ${outcome.error}`);
  }

  private async binary(): Promise<string> {
    const located = await this.nginx.locate();
    if ('missing' in located) throw new AppError('UNAVAILABLE', located.missing);
    return located.path;
  }

  /** Fields left out keep their current value; every field is then checked against its allow-list. */
  private async parse(body: unknown): Promise<NginxConfig> {
    const current = await this.config();
    const merged = body && typeof body === 'object' && !Array.isArray(body) ? { ...current, ...body } : body;
    const result = nginxConfigBody.safeParse(merged);
    if (!result.success) {
      const issue = result.error.issues[0];
      const field = issue?.path[0] as keyof NginxConfig | undefined;
      if (!issue || !field) throw new AppError('VALIDATION', 'Send the web-server settings as a JSON object');
      const targets = issue.code === 'custom' ? (issue.params?.targets as number[] | undefined) : undefined;
      throw new NginxFieldError(field, issue.message || `${NGINX_FIELD_LABELS[field]} is not valid`, targets);
    }
    const config = result.data;
    const rootProblem = await checkStaticRoot(config.staticRoot, this.app);
    if (rootProblem)
      throw new NginxFieldError('staticRoot', `${NGINX_FIELD_LABELS.staticRoot} ${rootProblem}`);
    if (config.sslEnabled && config.sslPort === config.port) {
      throw new NginxFieldError('sslPort', 'HTTPS port must differ from the HTTP port');
    }
    return config;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** The server names with `domain` first when it is not among them yet (at most 10 names). */
function withName(serverName: string, domain: string): string {
  const names = serverName.split(' ');
  return names.includes(domain) ? serverName : [domain, ...names].slice(0, 10).join(' ');
}
