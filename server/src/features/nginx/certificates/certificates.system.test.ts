import { X509Certificate } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { connect } from 'node:tls';
import type { CertificateStatus } from '@common/schemas/certificates';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app';
import { loadConfig } from '../../../settings/config';
import { openEmbeddedStore } from '../../../store/sqlite/store';
import type { Store } from '../../../store/store';
import { freePort } from '../../../test/free-port';
import { type Pebble, pebbleForTests, startPebble } from '../../../test/pebble';
import {
  makeStaticRoot,
  nginxForTests,
  nginxProcessesUnder,
  readableTempDir,
  stopNginx,
} from '../../../test/real-nginx';
import { bearer, confirmed, createUser } from '../../../test/test-app';
import { StoreLeases } from '../../shared-state/store-lease';
import { NginxService } from '../nginx.service';
import { CertificatesService } from './certificates.service';

// The whole flow for real: Pebble (Let's Encrypt's test server) checks HTTP-01 through the
// test's own nginx, on free ports of 127.0.0.1. Pebble's DNS answers every name with 127.0.0.1.
const ready = (await nginxForTests()) !== null && pebbleForTests();

/** Certificates live this long, so that renewal (a third left) comes due within the test. */
const VALIDITY_S = 12;
const DOMAIN = 'coach.example.test';

let dataDir: string;
let root: string;
let app: FastifyInstance;
let store: Store;
let pebble: Pebble;
let token: string;
let config: ReturnType<typeof loadConfig>;
let httpPort: number;
let sslPort: number;

const nginxDir = () => path.join(dataDir, 'nginx');
const testApp = () => ({ app, store, dataDir, close: async () => {} });
const get = async (url: string) => app.inject({ method: 'GET', url, headers: bearer(token) });
const post = async (url: string, payload: object) =>
  app.inject({ method: 'POST', url, headers: await confirmed(testApp(), token), payload });
const status = async () => (await get('/api/system/certificate')).json().data as CertificateStatus;
const historyLength = async () => (await get('/api/system/nginx/history')).json().data.entries.length;

/** The certificate nginx presents for `servername` on the HTTPS port, and whether it checks out against `ca`. */
function served(servername: string, ca?: string): Promise<{ fingerprint: string; authorized: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: '127.0.0.1', port: sslPort, servername, rejectUnauthorized: false, ...(ca ? { ca } : {}) },
      () => {
        const fingerprint = socket.getPeerCertificate().fingerprint256;
        resolve({ fingerprint, authorized: socket.authorized });
        socket.end();
      },
    );
    socket.on('error', reject);
  });
}

/** The fingerprint of the leaf certificate installed in ssl/cert.pem. */
async function installed(): Promise<string> {
  return new X509Certificate(await readFile(path.join(nginxDir(), 'ssl', 'cert.pem'))).fingerprint256;
}

describe.skipIf(!ready)('HTTPS by itself: a certificate from Pebble, installed and renewed', () => {
  beforeAll(async () => {
    dataDir = await readableTempDir('certificates-');
    root = (await makeStaticRoot()).root;
    const appPort = await freePort();
    httpPort = await freePort();
    sslPort = await freePort();
    pebble = await startPebble({ httpPort, validitySeconds: VALIDITY_S });
    config = loadConfig({
      DATA_DIR: dataDir,
      PORT: String(appPort),
      CLIENT_DIST_DIR: root,
      NGINX_LISTEN_ADDRESS: '127.0.0.1',
      ACME_CA_FILE: pebble.caFile,
      PATH: process.env.PATH ?? '',
    });
    store = await openEmbeddedStore(dataDir);
    app = await buildApp({ config, store });
    await app.listen({ port: appPort, host: '127.0.0.1' });
    token = (await createUser(testApp(), { role: 'admin' })).token;
    // The site runs on plain HTTP first, as a coach's does before HTTPS.
    const saved = await post('/api/system/config', { port: httpPort, sslPort, staticRoot: root });
    expect(saved.statusCode).toBe(200);
    expect((await post('/api/system/restart', {})).json().action).toBe('started');
  }, 30_000);

  afterAll(async () => {
    const left = dataDir ? await stopNginx(path.join(nginxDir(), 'logs', 'nginx.pid')) : [];
    const strays = dataDir ? await nginxProcessesUnder(nginxDir()) : [];
    await app?.close();
    await store?.close();
    await pebble?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
    expect(left).toEqual([]);
    expect(strays).toEqual([]);
  });

  it('refuses a domain that is not a plain host name, saying why, and changes nothing', async () => {
    const before = await status();
    const versions = await historyLength();
    const cases: Array<[string, RegExp]> = [
      ['coach.example.test; include /etc/passwd', /must not hold ";"|without spaces/],
      ['coach.example.test;', /must not hold ";"/],
      ['coach.example.test\nserver_name evil', /one line/],
      ['coach example.test', /without spaces/],
      ['https://coach.example.test/', /without http:\/\//],
      ['*.example.test', /wildcard/],
      ['localhost', /at least one dot/],
      ['203.0.113.7', /not an IP address/],
      ['', /required/],
    ];
    for (const [domain, words] of cases) {
      const answer = await post('/api/system/certificate', { domain, authority: 'letsencrypt-staging' });
      expect(answer.statusCode, domain).toBe(400);
      expect(answer.json()).toMatchObject({ success: false, code: 'VALIDATION', field: 'domain' });
      expect(answer.json().error).toMatch(words);
    }
    const noUrl = await post('/api/system/certificate', {
      domain: DOMAIN,
      authority: 'custom',
      directoryUrl: 'ftp://x',
    });
    expect(noUrl.json()).toMatchObject({ field: 'directoryUrl' });
    expect(await status()).toEqual(before);
    expect(await historyLength()).toBe(versions);
    // Without the password confirmed again, nothing is ordered.
    const unconfirmed = await app.inject({
      method: 'POST',
      url: '/api/system/certificate',
      headers: bearer(token),
      payload: { domain: DOMAIN, authority: 'letsencrypt' },
    });
    expect(unconfirmed.json()).toMatchObject({ code: 'REAUTH_REQUIRED' });
    expect(await status()).toEqual(before);
  });

  it('obtains a certificate, installs it with its key 0600, and nginx serves it at once', async () => {
    const answer = await post('/api/system/certificate', {
      domain: DOMAIN,
      authority: 'custom',
      directoryUrl: pebble.directoryUrl,
      email: 'coach@example.test',
    });
    expect(answer.json().error).toBeUndefined();
    expect(answer.statusCode).toBe(200);
    const data = answer.json().data as CertificateStatus;
    expect(data).toMatchObject({ domain: DOMAIN, lastTry: { ok: true, renewal: false } });
    expect(data.certificate?.issuer).toMatch(/Pebble/);
    const lifetime = Date.parse(data.certificate!.notAfter) - Date.parse(data.certificate!.notBefore);
    expect(Date.parse(data.certificate!.notAfter) - Date.parse(data.certificate!.renewsAt)).toBeCloseTo(
      lifetime / 3,
      -2,
    );

    // nginx presents exactly the new certificate, and it checks out against Pebble's root.
    const now = await served(DOMAIN, await pebble.root());
    expect(now.fingerprint).toBe(await installed());
    expect(now.authorized).toBe(true);
    // The keys stay private; plain HTTP now redirects, but still answers the challenge folder.
    for (const key of [path.join('ssl', 'key.pem'), path.join('acme', 'account-key.pem')])
      expect((await stat(path.join(nginxDir(), key))).mode & 0o777).toBe(0o600);
    const config = (await get('/api/system/config')).json().data;
    expect(config).toMatchObject({ sslEnabled: true });
    expect(config.serverName.split(' ')).toContain(DOMAIN);
    const redirect = await fetch(`http://127.0.0.1:${httpPort}/courses`, {
      redirect: 'manual',
      headers: { host: DOMAIN },
    });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe(`https://${DOMAIN}:${sslPort}/courses`);
    const kinds = (await get('/api/admin/activity?pageSize=25'))
      .json()
      .data.map((e: { kind: string }) => e.kind);
    expect(kinds[0]).toBe('nginx.certificate');
  });

  it('renews by itself once a third of the lifetime is left (two workers looking, one order under the lease), and nginx serves the new one', async () => {
    const first = await installed();
    const before = await status();
    // A second worker of the same site, looking often: the store's lease lets one order at a time.
    const workers = [0, 1].map(
      () =>
        new CertificatesService(
          {
            settings: config.nginx,
            nginx: new NginxService(config),
            leases: new StoreLeases(store),
            log: app.log,
          },
          { checkEveryMs: 200 },
        ),
    );
    for (const worker of workers) worker.start();
    try {
      const deadline = Date.parse(before.certificate!.renewsAt) + 8000;
      // Done once the order is recorded (the files change a moment before, nginx reloads between).
      while (!(await status()).lastTry?.renewal && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 200));
    } finally {
      for (const worker of workers) worker.stop();
    }
    const after = await status();
    expect(after.lastTry).toMatchObject({ ok: true, renewal: true });
    expect(Date.parse(after.certificate!.notAfter)).toBeGreaterThan(Date.parse(before.certificate!.notAfter));
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(before.certificate!.renewsAt));
    expect((await served(DOMAIN)).fingerprint).toBe(await installed());
    expect(await installed()).not.toBe(first);
  }, 30_000);

  it('says in plain words when the challenge fails, keeps the site up, and waits an hour before the next order', async () => {
    const failing = 'elsewhere.example.test';
    // Its DNS points at an address where nothing listens on the HTTP port.
    await pebble.pointAt(failing, '127.0.0.2');
    const serving = await installed();
    const answer = await post('/api/system/certificate', {
      domain: failing,
      authority: 'custom',
      directoryUrl: pebble.directoryUrl,
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error).toMatch(/could not reach elsewhere\.example\.test on port 80/);
    expect(answer.json().error).toMatch(/firewall/);
    // The site runs on with the certificate it had.
    expect((await served(DOMAIN)).fingerprint).toBe(serving);
    expect(await installed()).toBe(serving);
    const after = await status();
    expect(after).toMatchObject({ domain: failing, lastTry: { ok: false, domain: failing } });
    expect(Date.parse(after.nextTryAfter!) - Date.parse(after.lastTry!.at)).toBe(3_600_000);

    const again = await post('/api/system/certificate', {
      domain: failing,
      authority: 'custom',
      directoryUrl: pebble.directoryUrl,
    });
    expect(again.statusCode).toBe(429);
    expect(again.json().error).toMatch(/the next one can start at \d\d:\d\d UTC/);
    const kinds = (await get('/api/admin/activity?pageSize=25'))
      .json()
      .data.map((e: { kind: string }) => e.kind);
    expect(kinds[0]).toBe('nginx.certificate-failed');
  });
});
