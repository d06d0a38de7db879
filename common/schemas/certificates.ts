import { z } from 'zod';
import { CERTIFICATE_FIELD_LABELS, type CertificateAuthority, domainProblem } from '../certificates';
import type { DataAnswer } from './envelopes';

export {
  CERTIFICATE_AUTHORITIES,
  CERTIFICATE_FIELD_LABELS,
  type CertificateAuthority,
  type CertificateField,
} from '../certificates';

/*
 * The Nginx panel's HTTPS card's calls: the coach's domain and a certificate obtained for it from
 * an ACME certificate authority (Let's Encrypt by default), renewed by itself.
 */

const trimmed = (value: string) => value.trim();

/** POST /api/system/certificate: what to obtain a certificate for, and from whom. */
export const certificateBody = z
  .object({
    domain: z
      .string({ error: `${CERTIFICATE_FIELD_LABELS.domain} must be text` })
      // Only the ends are trimmed of plain spaces: a line break anywhere is refused, not smoothed away.
      .transform((value) => value.replace(/^ +| +$/g, ''))
      .superRefine((value, ctx) => {
        const problem = domainProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .transform((value) => value.toLowerCase()),
    authority: z.enum(['letsencrypt', 'letsencrypt-staging', 'custom'], {
      error: `${CERTIFICATE_FIELD_LABELS.authority} must be Let's Encrypt, Let's Encrypt (staging) or another ACME directory`,
    }),
    directoryUrl: z
      .string({ error: `${CERTIFICATE_FIELD_LABELS.directoryUrl} must be text` })
      .transform(trimmed)
      .optional(),
    email: z
      .string({ error: `${CERTIFICATE_FIELD_LABELS.email} must be text` })
      .transform(trimmed)
      .refine(
        (value) =>
          value === '' || (value.length <= 254 && /^[^\s@;<>"]+@[^\s@;<>"]+\.[^\s@;<>"]+$/.test(value)),
        `${CERTIFICATE_FIELD_LABELS.email} must be an e-mail address, or left empty`,
      )
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.authority !== 'custom') return;
    const url = body.directoryUrl ?? '';
    let ok = false;
    try {
      ok = new URL(url).protocol === 'https:' && !/[\s;]/.test(url);
    } catch {
      ok = false;
    }
    if (!ok)
      ctx.addIssue({
        code: 'custom',
        path: ['directoryUrl'],
        message: `${CERTIFICATE_FIELD_LABELS.directoryUrl} must be an https:// address, such as https://acme.example.com/directory`,
      });
  });

export type CertificateRequest = z.infer<typeof certificateBody>;

/** The certificate nginx serves now, when it came from the certificate authority. */
export interface ObtainedCertificate {
  domain: string;
  issuer: string;
  notBefore: string;
  notAfter: string;
  /** When it will be renewed: once a third of its lifetime is left. */
  renewsAt: string;
}

/** The last order placed, and how it went. */
export interface CertificateTry {
  at: string;
  domain: string;
  ok: boolean;
  /** What happened, in plain words (what to fix, when it failed). */
  message: string;
  /** Whether it was the renewal timer's, not a click. */
  renewal: boolean;
}

/** GET /api/system/certificate `data`. */
export interface CertificateStatus {
  domain: string | null;
  authority: CertificateAuthority;
  directoryUrl: string;
  email: string;
  certificate: ObtainedCertificate | null;
  lastTry: CertificateTry | null;
  /** After a failure, no new order for that domain before this moment (at most one an hour). */
  nextTryAfter: string | null;
  /** Set when NGINX_SSL_CERT and NGINX_SSL_KEY are set: that certificate wins, nothing is obtained. */
  ownCertificate: boolean;
}

export type CertificateStatusResponse = DataAnswer<CertificateStatus>;

/** POST /api/system/certificate */
export interface CertificateObtainedResponse {
  success: true;
  message: string;
  data: CertificateStatus;
}
