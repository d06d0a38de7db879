/**
 * A certificate authority's refusal in plain words: what went wrong, and what to fix. The
 * authority's own problem types (RFC 8555 §6.7) decide; its words follow for the curious.
 */
export class CertificateProblem extends Error {
  constructor(
    message: string,
    /** The authority limits how often one may ask: the answer is 429, not a failure to fix. */
    readonly rateLimited = false,
  ) {
    super(message);
    this.name = 'CertificateProblem';
  }
}

const ACME = 'urn:ietf:params:acme:error:';

/** What the authority said: its problem type (without the URN's prefix) and its detail. */
export interface AuthorityWords {
  type?: string;
  detail: string;
}

export function explainRefusal(words: AuthorityWords, domain: string): CertificateProblem {
  const type = (words.type ?? '').replace(ACME, '');
  const detail = words.detail.trim();
  const said = detail ? ` (the certificate authority said: ${detail})` : '';
  if (type === 'rateLimited' || /rate ?limit|too many/i.test(detail)) {
    return new CertificateProblem(
      `The certificate authority's rate limit was reached for ${domain}: too many certificates or failed tries lately. ` +
        `Wait before trying again (Let's Encrypt counts per hour and per week), and use its staging server for trials${said}.`,
      true,
    );
  }
  if (type === 'dns' || /NXDOMAIN|no such host|DNS problem|SERVFAIL|no valid A|no A record/i.test(detail)) {
    return new CertificateProblem(
      `The DNS of ${domain} does not point here: the certificate authority found no address for it. ` +
        `At your domain's registrar, add an A record (and AAAA for IPv6) for ${domain} with this server's public address, ` +
        `wait for it to spread (up to an hour), then try again${said}.`,
    );
  }
  if (type === 'connection' || /connection refused|timeout|timed out|connect:|unreachable/i.test(detail)) {
    return new CertificateProblem(
      `The certificate authority could not reach ${domain} on port 80 (HTTP). Check that the DNS of ${domain} points ` +
        `to this server, that port 80 is open in the firewall (and forwarded by the router), and that nginx listens on it${said}.`,
    );
  }
  if (type === 'unauthorized' || /\b40[34]\b|invalid response/i.test(detail)) {
    return new CertificateProblem(
      `${domain} answered, but not with this server's check file: its DNS may point to another server, or a service ` +
        `in front of it (a CDN or proxy) answers instead. Point ${domain} straight at this server, then try again${said}.`,
    );
  }
  if (type === 'rejectedIdentifier' || type === 'caa' || type === 'unsupportedIdentifier') {
    return new CertificateProblem(
      `The certificate authority will not issue a certificate for ${domain}${said}. ` +
        'Check the name, and any CAA record of the domain naming which authorities may issue for it.',
    );
  }
  return new CertificateProblem(`The certificate authority refused the certificate for ${domain}${said}.`);
}

/** An error on the way to the authority itself (no network, a wrong directory address, an untrusted one). */
export function explainUnreached(error: unknown, directoryUrl: string, domain: string): CertificateProblem {
  if (error instanceof CertificateProblem) return error;
  const code = (error as { code?: string }).code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  const status = (error as { response?: { status?: number } }).response?.status;
  if (status === 429) return explainRefusal({ type: 'rateLimited', detail: message }, domain);
  if (/^(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)$/.test(code)) {
    return new CertificateProblem(
      `This server could not reach the certificate authority at ${directoryUrl} (${code}). ` +
        'Check its outgoing connection to the internet (HTTPS, port 443) and the directory address.',
    );
  }
  if (/certificate|self[- ]signed|UNABLE_TO_VERIFY/i.test(`${code} ${message}`)) {
    return new CertificateProblem(
      `The certificate authority at ${directoryUrl} is not trusted by this server (${code || message}). ` +
        'For a private ACME server, name its CA file in ACME_CA_FILE.',
    );
  }
  // The acme-client library throws the authority's detail as a plain Error.
  return explainRefusal({ detail: message }, domain);
}
