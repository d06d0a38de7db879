import { generateKeyPairSync } from 'node:crypto';
import type { DnsRecord, MailIdentityView } from '@common/schemas/mail-members';
import { AppError } from '../../../lib/app-error';
import type { MailIdentity } from '../../../mail/mailer';
import { StoredSettingsRepository } from '../../../settings/stored-settings.repository';
import type { Store } from '../../../store/store';

interface IdentityDoc {
  from?: string;
  dkim?: { selector: string; privateKey: string; publicKey: string; createdAt: string };
}

/** Every message reads the identity; a few seconds of memory spare the store a read per message. */
const CACHE_MS = 2_000;

/**
 * Who the site's mail is from and the DKIM key that signs it, set in the console and kept in the
 * store (every process and machine signs alike). The From must be on the site's own domain (the
 * host of PUBLIC_URL or of MAIL_FROM, or a domain above it): mail from another domain would
 * fail SPF, DKIM and DMARC and land in spam. The key pair is made here; only the public half is
 * ever shown, as the DNS record to publish.
 */
export class IdentityService {
  private readonly saved: StoredSettingsRepository<IdentityDoc>;
  private cached: { at: number; identity: MailIdentity } | null = null;

  constructor(
    store: Store,
    private readonly configured: { mailFrom: string; publicUrl: string },
  ) {
    this.saved = new StoredSettingsRepository(store, 'mail-identity');
  }

  /** What the mailer and the bulk sender sign with: the console's From and key, or MAIL_FROM unsigned. */
  async current(): Promise<MailIdentity> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.identity;
    const doc = (await this.saved.read()) ?? {};
    const from = doc.from ?? this.configured.mailFrom;
    const domain = domainOf(from);
    const identity: MailIdentity = {
      from,
      ...(doc.dkim
        ? { dkim: { domainName: domain, keySelector: doc.dkim.selector, privateKey: doc.dkim.privateKey } }
        : {}),
    };
    this.cached = { at: Date.now(), identity };
    return identity;
  }

  async view(): Promise<MailIdentityView> {
    const doc = (await this.saved.read()) ?? {};
    const from = doc.from ?? this.configured.mailFrom;
    const domain = domainOf(from);
    const records: DnsRecord[] = [
      {
        type: 'TXT',
        name: domain,
        value: 'v=spf1 a mx ~all',
        purpose:
          'SPF: which servers may send for the domain. Add your mail provider’s include (for example include:_spf.example-provider.com) before ~all.',
      },
      {
        type: 'TXT',
        name: `_dmarc.${domain}`,
        value: `v=DMARC1; p=none; rua=mailto:postmaster@${domain}`,
        purpose:
          'DMARC: what inboxes do with mail that fails SPF and DKIM. Start with p=none, then quarantine.',
      },
    ];
    if (doc.dkim)
      records.unshift({
        type: 'TXT',
        name: `${doc.dkim.selector}._domainkey.${domain}`,
        value: `v=DKIM1; k=rsa; p=${doc.dkim.publicKey}`,
        purpose: 'DKIM: the public half of the key that signs every message.',
      });
    return {
      from,
      configuredFrom: this.configured.mailFrom,
      domain,
      dkim: doc.dkim ? { selector: doc.dkim.selector, createdAt: doc.dkim.createdAt } : null,
      records,
    };
  }

  async saveFrom(from: string): Promise<MailIdentityView> {
    const domain = domainOf(from);
    const own = [new URL(this.configured.publicUrl).hostname, domainOf(this.configured.mailFrom)];
    const related = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
    if (!own.some((host) => related(domain, host)))
      throw new AppError(
        'VALIDATION',
        `Mail must come from the site’s own domain (${own.join(' or ')}): mail from ${domain} would fail the inboxes’ checks and land in spam.`,
      );
    await this.saved.write({ ...(await this.saved.read()), from });
    this.cached = null;
    return this.view();
  }

  /** Makes a new key pair (2048-bit RSA) under a new selector; the old record may then go. */
  async makeDkimKey(now = new Date()): Promise<MailIdentityView> {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const selector = `members${now.toISOString().slice(0, 10).replace(/-/g, '')}`;
    const dkim = {
      selector,
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      createdAt: now.toISOString(),
    };
    await this.saved.write({ ...(await this.saved.read()), dkim });
    this.cached = null;
    return this.view();
  }
}

const domainOf = (address: string) => address.split('@')[1]?.toLowerCase() ?? 'localhost';
