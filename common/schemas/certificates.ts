import { z } from 'zod';
import type { DataAnswer } from './envelopes';

/*
 * The Nginx panel's HTTPS card: the coach's domain and a certificate obtained for it from an
 * ACME certificate authority (Let's Encrypt by default), renewed by itself.
 */

/** Where certificates come from: Let's Encrypt, its staging server for a trial, or any ACME directory. */
export const CERTIFICATE_AUTHORITIES = {
  letsencrypt: 'https://acme-v02.api.letsencrypt.org/directory',
  'letsencrypt-staging': 'https://acme-staging-v02.api.letsencrypt.org/directory',
} as const;

export type CertificateAuthority = keyof typeof CERTIFICATE_AUTHORITIES | 'custom';

export const CERTIFICATE_FIELD_LABELS = {
  domain: 'Domain name',
  authority: 'Certificate authority',
  directoryUrl: 'ACME directory URL',
  email: 'Contact e-mail',
} as const;

export type CertificateField = keyof typeof CERTIFICATE_FIELD_LABELS;

// One host name as DNS has it: labels of letters, digits and hyphens joined by dots, at least two
// labels (a certificate authority issues none for a bare name), no wildcard (HTTP-01 cannot prove one).
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})+$`);
const IPV4 = /^\d+(?:\.\d+){3}$/;

/** Why `value` is not a domain a certificate can be obtained for, in words; null when it is one. */
export function domainProblem(value: string): string | null {
  const label = CERTIFICATE_FIELD_LABELS.domain;
  if (value === '') return `${label} is required`;
  if (/[\r\n]/.test(value)) return `${label} must be one line: it holds a line break`;
  if (/\s/.test(value)) return `${label} must be one name without spaces, such as coach.example.com`;
  if (value.includes(';')) return `${label} must not hold ";": type only the name, such as coach.example.com`;
  if (/^[a-z]+:\/\//i.test(value) || value.includes('/'))
    return `${label} is the name alone, without http:// or a path: such as coach.example.com`;
  if (value.startsWith('*')) return `${label} cannot be a wildcard: name one site, such as coach.example.com`;
  if (IPV4.test(value)) return `${label} must be a name, not an IP address: certificates here are for names`;
  if (value.length > 253 || !DOMAIN.test(value.toLowerCase()))
    return `${label} may only hold letters, digits, dots and hyphens, with at least one dot, such as coach.example.com`;
  return null;
}

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
