/*
 * The HTTPS card's authorities, labels and domain check, kept apart from the zod schemas
 * (schemas/certificates.ts) so that the console panel does not pull the validation library in.
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
  if (value.includes(';')) return `${label} must not hold ";": type only the name, such as coach.example.com`;
  if (/\s/.test(value)) return `${label} must be one name without spaces, such as coach.example.com`;
  if (/^[a-z]+:\/\//i.test(value) || value.includes('/'))
    return `${label} is the name alone, without http:// or a path: such as coach.example.com`;
  if (value.startsWith('*')) return `${label} cannot be a wildcard: name one site, such as coach.example.com`;
  if (IPV4.test(value)) return `${label} must be a name, not an IP address: certificates here are for names`;
  if (value.length > 253 || !DOMAIN.test(value.toLowerCase()))
    return `${label} may only hold letters, digits, dots and hyphens, with at least one dot, such as coach.example.com`;
  return null;
}
