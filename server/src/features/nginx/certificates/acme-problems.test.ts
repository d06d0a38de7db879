import { describe, expect, it } from 'vitest';
import { explainRefusal, explainUnreached } from './acme-problems';

const domain = 'coach.example.com';
const acme = (type: string) => `urn:ietf:params:acme:error:${type}`;

describe('a certificate authority refusal, in plain words', () => {
  it('says what to fix for DNS, a closed port, another server answering and a rate limit', () => {
    const dns = explainRefusal(
      { type: acme('dns'), detail: 'NXDOMAIN looking up A for coach.example.com' },
      domain,
    );
    expect(dns.message).toMatch(/^The DNS of coach\.example\.com does not point here/);
    expect(dns.message).toMatch(/A record/);
    const port = explainRefusal(
      { type: acme('connection'), detail: 'dial tcp 192.0.2.1:80: connect: connection refused' },
      domain,
    );
    expect(port.message).toMatch(/could not reach coach\.example\.com on port 80/);
    expect(port.message).toMatch(/firewall/);
    const other = explainRefusal(
      { type: acme('unauthorized'), detail: 'Invalid response from http://…: 404' },
      domain,
    );
    expect(other.message).toMatch(/not with this server's check file/);
    const limited = explainRefusal(
      { type: acme('rateLimited'), detail: 'too many certificates (5) already issued' },
      domain,
    );
    expect(limited.rateLimited).toBe(true);
    expect(limited.message).toMatch(/rate limit/);
    expect(explainRefusal({ detail: 'Something new' }, domain).message).toMatch(/said: Something new/);
  });

  it('tells an authority out of reach or untrusted from a refusal', () => {
    const url = 'https://acme.example.net/directory';
    const offline = explainUnreached(
      Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }),
      url,
      domain,
    );
    expect(offline.message).toMatch(
      /could not reach the certificate authority at https:\/\/acme\.example\.net/,
    );
    const untrusted = explainUnreached(
      Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      url,
      domain,
    );
    expect(untrusted.message).toMatch(/ACME_CA_FILE/);
    const limited = explainUnreached(
      Object.assign(new Error('x'), { response: { status: 429 } }),
      url,
      domain,
    );
    expect(limited.rateLimited).toBe(true);
  });
});
