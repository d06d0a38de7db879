import { readFile } from 'node:fs/promises';
import { Agent, get } from 'node:https';
import { rootCertificates } from 'node:tls';
import * as acme from 'acme-client';
import { writeFileDurably } from '../../../lib/durable-file';
import { type AuthorityWords, CertificateProblem, explainRefusal, explainUnreached } from './acme-problems';
import type { ChallengeFolder } from './challenge-folder';

export interface OrderRequest {
  directoryUrl: string;
  domain: string;
  email: string;
  /** The ACME account's key (PEM), made on the first order and kept (0600). */
  accountKeyFile: string;
  challenges: ChallengeFolder;
}

export interface Obtained {
  /** The certificate and its chain, as nginx reads it. */
  cert: string;
  key: string;
  issuer: string;
  notBefore: Date;
  notAfter: Date;
}

/** Polling of the authority: often at first (Pebble answers at once), never more than every 10 s. */
const BACKOFF = { backoffAttempts: 12, backoffMin: 300, backoffMax: 10_000 };

/**
 * acme-client's one HTTP client is shared by the process: it fails fast (an hour's wait follows a
 * failure, never a retry loop honouring a rate limit's hours-long Retry-After), and trusts the CA
 * of a private ACME server when ACME_CA_FILE names one.
 */
export async function configureAcmeClient(caFile: string | undefined): Promise<void> {
  (
    acme.axios.defaults as unknown as { acmeSettings: { retryMaxAttempts: number } }
  ).acmeSettings.retryMaxAttempts = 0;
  acme.axios.defaults.timeout = 30_000;
  if (caFile) {
    const ca = await readFile(caFile, 'utf8');
    acme.axios.defaults.httpsAgent = new Agent({ ca: [...rootCertificates, ca] });
  }
}

/**
 * One certificate order with the HTTP-01 challenge, through acme-client (RFC 8555): the account
 * (made once), the order, each authorization's challenge answered from the challenge folder nginx
 * serves, the key and CSR made here, the certificate fetched. A refusal throws a
 * CertificateProblem in plain words.
 */
export async function orderCertificate(request: OrderRequest): Promise<Obtained> {
  const { directoryUrl, domain } = request;
  try {
    const client = new acme.Client({
      directoryUrl,
      accountKey: await accountKey(request.accountKeyFile),
      ...BACKOFF,
    });
    await account(client, request.email);
    const order = await client.createOrder({ identifiers: [{ type: 'dns', value: domain }] });
    for (const authorization of await client.getAuthorizations(order)) {
      if (authorization.status === 'valid') continue;
      const challenge = authorization.challenges.find((offered) => offered.type === 'http-01');
      if (!challenge)
        throw new CertificateProblem(`The certificate authority offers no HTTP-01 check for ${domain}.`);
      const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
      await request.challenges.put(challenge.token, keyAuthorization);
      try {
        await client.completeChallenge(challenge);
        await client.waitForValidStatus(challenge);
      } catch (error) {
        throw explainRefusal(await challengeWords(client, order, challenge.url, error), domain);
      } finally {
        await request.challenges.remove(challenge.token);
      }
    }
    const [key, csr] = await acme.crypto.createCsr(
      { commonName: domain, altNames: [domain] },
      await acme.crypto.createPrivateEcdsaKey(),
    );
    const finalized = await client.finalizeOrder(order, csr);
    const cert = await client.getCertificate(finalized);
    const info = acme.crypto.readCertificateInfo(cert);
    return {
      cert,
      key: key.toString(),
      issuer: info.issuer.commonName ?? 'unknown',
      notBefore: info.notBefore,
      notAfter: info.notAfter,
    };
  } catch (error) {
    // acme-client loses a network error's cause (it throws a TypeError of its own): ask once more to learn it.
    const cause = error instanceof TypeError ? ((await reachDirectory(directoryUrl)) ?? error) : error;
    throw explainUnreached(cause, directoryUrl, domain);
  }
}

/** The network error on the way to the directory, if any (no address, refused, untrusted). */
function reachDirectory(directoryUrl: string): Promise<Error | null> {
  return new Promise((resolve) => {
    const agent = acme.axios.defaults.httpsAgent as Agent | undefined;
    const req = get(directoryUrl, { agent, timeout: 10_000 }, (res) => {
      res.resume();
      resolve(null);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', resolve);
  });
}

/** The account of this key: found when it exists (an update without changes is refused), else made. */
async function account(client: acme.Client, email: string): Promise<void> {
  try {
    await client.createAccount({ onlyReturnExisting: true });
  } catch {
    await client.createAccount({
      termsOfServiceAgreed: true,
      ...(email ? { contact: [`mailto:${email}`] } : {}),
    });
  }
}

async function accountKey(file: string): Promise<Buffer> {
  const existing = await readFile(file).catch(() => null);
  if (existing) return existing;
  const key = await acme.crypto.createPrivateEcdsaKey();
  // 0600 like every file written whole (lib/durable-file.ts); another worker's key, made meanwhile, wins.
  await writeFileDurably(file, key, { createOnly: true });
  return readFile(file);
}

/** The failed challenge's problem as the authority recorded it (its type tells DNS from a closed port). */
async function challengeWords(
  client: acme.Client,
  order: acme.Order,
  challengeUrl: string,
  error: unknown,
): Promise<AuthorityWords> {
  const fallback = { detail: error instanceof Error ? error.message : String(error) };
  const authorizations = await client.getAuthorizations(order).catch(() => []);
  for (const authorization of authorizations) {
    const failed = authorization.challenges.find((challenge) => challenge.url === challengeUrl) as
      | { error?: { type?: string; detail?: string } }
      | undefined;
    if (failed?.error) return { type: failed.error.type, detail: failed.error.detail ?? fallback.detail };
  }
  return fallback;
}
