import { readFile } from 'node:fs/promises';
import type { CertificateAuthority, CertificateTry } from '@common/schemas/certificates';
import { writeFileDurably } from '../../../lib/durable-file';

/** What the HTTPS card keeps between orders (DATA_DIR/nginx/acme/state.json, the owner's alone). */
export interface CertificateState {
  domain: string | null;
  authority: CertificateAuthority;
  directoryUrl: string;
  email: string;
  /** The certificate last obtained and installed. */
  certificate: { domain: string; issuer: string; notBefore: string; notAfter: string } | null;
  lastTry: CertificateTry | null;
  /** Per domain, when its last order failed: no new one within the hour after. */
  failedAt: Record<string, string>;
}

export const NO_CERTIFICATE: CertificateState = {
  domain: null,
  authority: 'letsencrypt',
  directoryUrl: '',
  email: '',
  certificate: null,
  lastTry: null,
  failedAt: {},
};

/**
 * A file, like the rest of nginx's settings: it describes this machine's nginx and certificate,
 * which several machines sharing one database do not share. Written under the order's lease.
 */
export class CertificateStateFile {
  constructor(private readonly file: string) {}

  async read(): Promise<CertificateState> {
    try {
      return {
        ...NO_CERTIFICATE,
        ...(JSON.parse(await readFile(this.file, 'utf8')) as Partial<CertificateState>),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...NO_CERTIFICATE };
      throw error;
    }
  }

  async change(changes: Partial<CertificateState>): Promise<CertificateState> {
    const next = { ...(await this.read()), ...changes };
    await writeFileDurably(this.file, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  }
}
