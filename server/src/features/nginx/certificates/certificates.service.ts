import path from 'node:path';
import {
  CERTIFICATE_AUTHORITIES,
  type CertificateField,
  type CertificateRequest,
  type CertificateStatus,
  certificateBody,
} from '@common/schemas/certificates';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../../lib/app-error';
import type { NginxSettings } from '../../../settings/nginx-settings';
import type { StoreLeases } from '../../shared-state/store-lease';
import type { NginxService } from '../nginx.service';
import { nginxLayout } from '../nginx-layout';
import { configureAcmeClient, orderCertificate } from './acme-order';
import { CertificateProblem } from './acme-problems';
import { type CertificateState, CertificateStateFile } from './certificate-state';
import { ChallengeFolder } from './challenge-folder';

/** A field of the HTTPS card refused: nothing has been saved or ordered. */
export class CertificateFieldError extends AppError {
  constructor(
    readonly field: CertificateField,
    message: string,
  ) {
    super('VALIDATION', message);
  }
}

const HOUR_MS = 60 * 60 * 1000;
/** An order takes seconds to a minute or two; a holder that dies lets go after this. */
const ORDER_LEASE_MS = 10 * 60 * 1000;
/** How often each process looks whether the certificate is due (reading one small file). */
const CHECK_EVERY_MS = 10 * 60 * 1000;
const RENEWAL_BY = 'renewal timer';

export interface CertificateOptions {
  /** Tests look more often. */
  checkEveryMs?: number;
}

const renewsAt = (certificate: NonNullable<CertificateState['certificate']>) => {
  const from = Date.parse(certificate.notBefore);
  const to = Date.parse(certificate.notAfter);
  return new Date(to - (to - from) / 3);
};

const clock = (iso: string) => `${iso.slice(11, 16)} UTC`;

/**
 * The coach's domain with HTTPS by itself: a certificate obtained from an ACME certificate
 * authority (HTTP-01, answered by this machine's nginx), installed like one put there by hand,
 * and renewed once a third of its lifetime is left. Every process looks on a timer; the order
 * runs under a lease in the store, so one process at a time orders for a domain. After a failed
 * order, the next for that domain waits an hour (the authorities' limits); a failure never
 * touches the running site.
 */
export class CertificatesService {
  private readonly state: CertificateStateFile;
  private readonly challenges: ChallengeFolder;
  private readonly accountKeyFile: string;
  private readonly ready: Promise<void>;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly deps: {
      settings: NginxSettings;
      nginx: NginxService;
      leases: StoreLeases;
      log: FastifyBaseLogger;
    },
    private readonly options: CertificateOptions = {},
  ) {
    const layout = nginxLayout(deps.settings);
    this.state = new CertificateStateFile(path.join(layout.acmeDir, 'state.json'));
    this.accountKeyFile = path.join(layout.acmeDir, 'account-key.pem');
    this.challenges = new ChallengeFolder(layout.challengeDir);
    this.ready = configureAcmeClient(deps.settings.acmeCaFile);
    // An unreadable CA file is reported by the order that needs it.
    this.ready.catch(() => undefined);
  }

  async status(now = new Date()): Promise<CertificateStatus> {
    const state = await this.state.read();
    const failedAt = state.domain ? state.failedAt[state.domain] : undefined;
    const nextTry = failedAt ? Date.parse(failedAt) + HOUR_MS : 0;
    return {
      domain: state.domain,
      authority: state.authority,
      directoryUrl: state.directoryUrl,
      email: state.email,
      certificate: state.certificate && {
        ...state.certificate,
        renewsAt: renewsAt(state.certificate).toISOString(),
      },
      lastTry: state.lastTry,
      nextTryAfter: nextTry > now.getTime() ? new Date(nextTry).toISOString() : null,
      ownCertificate: Boolean(this.deps.settings.sslCert),
    };
  }

  /** "Get a certificate": saves the domain and authority, orders, installs, reloads nginx. */
  async obtain(body: unknown, by: string): Promise<CertificateStatus> {
    const request = parse(body);
    if (this.deps.settings.sslCert) {
      throw new AppError(
        'CONFLICT',
        'NGINX_SSL_CERT and NGINX_SSL_KEY are set: nginx uses that certificate. Unset them to obtain one here.',
      );
    }
    this.refuseWithinTheHour(await this.state.read(), request.domain);
    const directoryUrl =
      request.authority === 'custom'
        ? (request.directoryUrl ?? '')
        : CERTIFICATE_AUTHORITIES[request.authority];
    await this.state.change({
      domain: request.domain,
      authority: request.authority,
      directoryUrl,
      email: request.email ?? '',
    });
    await this.order(request.domain, by, false);
    return this.status();
  }

  /**
   * The timer's look: renews the installed certificate once a third of its lifetime is left (for
   * the domain it was obtained for, whatever a later failed try asked for).
   */
  async renewIfDue(now = new Date()): Promise<'renewed' | 'not-due' | 'skipped'> {
    const state = await this.state.read();
    const { certificate } = state;
    if (!certificate || this.deps.settings.sslCert) return 'skipped';
    if (now < renewsAt(certificate)) return 'not-due';
    const { domain } = certificate;
    const failedAt = state.failedAt[domain];
    if (failedAt && now.getTime() - Date.parse(failedAt) < HOUR_MS) return 'skipped';
    try {
      await this.order(domain, RENEWAL_BY, true, now);
      return 'renewed';
    } catch (error) {
      // Busy (another process renews) or failed (recorded for the panel): the site runs on.
      this.deps.log.warn({ err: error }, `Certificate renewal for ${domain}: ${(error as Error).message}`);
      return 'skipped';
    }
  }

  start(): void {
    const look = () => {
      this.renewIfDue().catch((error) =>
        this.deps.log.error({ err: error }, 'Certificate renewal check failed'),
      );
    };
    const every = this.options.checkEveryMs ?? CHECK_EVERY_MS;
    // Soon after the start (a certificate due while the site was down), then every `every`.
    this.timers = [setTimeout(look, Math.min(5000, every)), setInterval(look, every)];
    for (const timer of this.timers) timer.unref();
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
  }

  private refuseWithinTheHour(state: CertificateState, domain: string, now = new Date()): void {
    const failedAt = state.failedAt[domain];
    if (!failedAt || now.getTime() - Date.parse(failedAt) >= HOUR_MS) return;
    const next = new Date(Date.parse(failedAt) + HOUR_MS).toISOString();
    const why =
      state.lastTry?.domain === domain && !state.lastTry.ok
        ? ` It failed because: ${state.lastTry.message}`
        : '';
    throw new AppError(
      'RATE_LIMITED',
      `The last try for ${domain} failed at ${clock(failedAt)}: to stay within the certificate authority's limits, ` +
        `the next one can start at ${clock(next)}.${why}`,
    );
  }

  /** One order under the domain's lease: challenge served, certificate obtained, installed. */
  private order(domain: string, by: string, renewal: boolean, now = new Date()): Promise<void> {
    return this.deps.leases.run(
      `certificate:${domain}`,
      `A certificate for ${domain} is being obtained right now: look again in a minute.`,
      async () => {
        const state = await this.state.read();
        this.refuseWithinTheHour(state, domain, now);
        await this.deps.nginx.serveChallenges(domain, by);
        await this.ready;
        try {
          const obtained = await orderCertificate({
            directoryUrl: state.directoryUrl,
            domain,
            email: state.email,
            accountKeyFile: this.accountKeyFile,
            challenges: this.challenges,
          });
          const trial = state.authority === 'letsencrypt-staging';
          await this.deps.nginx.installCertificate({ ...obtained, trial }, domain, by);
          const { [domain]: _cleared, ...failedAt } = state.failedAt;
          await this.state.change({
            certificate: {
              domain,
              issuer: obtained.issuer,
              notBefore: obtained.notBefore.toISOString(),
              notAfter: obtained.notAfter.toISOString(),
            },
            lastTry: {
              at: new Date().toISOString(),
              domain,
              ok: true,
              renewal,
              message: `${renewal ? 'Renewed' : 'Obtained'} a certificate for ${domain} from ${obtained.issuer}, valid until ${obtained.notAfter.toISOString().slice(0, 10)}; nginx serves it.`,
            },
            failedAt,
          });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const at = new Date().toISOString();
          await this.state.change({
            lastTry: { at, domain, ok: false, renewal, message },
            failedAt: { ...state.failedAt, [domain]: at },
          });
          if (error instanceof AppError) throw error;
          const rateLimited = error instanceof CertificateProblem && error.rateLimited;
          throw new AppError(rateLimited ? 'RATE_LIMITED' : 'CONFLICT', message);
        }
      },
      { ttlMs: ORDER_LEASE_MS, waitMs: 0 },
    );
  }
}

function parse(body: unknown): CertificateRequest {
  const result = certificateBody.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = (issue?.path[0] ?? 'domain') as CertificateField;
  throw new CertificateFieldError(
    field,
    issue?.message ?? 'Send the domain name and the certificate authority',
  );
}
