import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import path from 'node:path';
import type { NginxHistory } from '@common/schemas/nginx';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../settings/config';
import { openEmbeddedStore } from '../../store/sqlite/store';
import type { Store } from '../../store/store';
import { freePort } from '../../test/free-port';
import {
  type Fetched,
  httpGet,
  kill,
  makeStaticRoot,
  nginxForTests,
  nginxProcessesUnder,
  readableTempDir,
  stopNginx,
} from '../../test/real-nginx';
import { bearer, confirmed, createUser } from '../../test/test-app';
import { isNginxAlive, readPid, workerPids } from './nginx-process';

// Everything here runs against the real nginx binary, on free ports of 127.0.0.1.
const nginxBinary = await nginxForTests();

/** A line of the app's request log (http/request-log.ts). */
interface LoggedRequest {
  path: string;
  ip: string;
}

let dataDir: string;
let site: Awaited<ReturnType<typeof makeStaticRoot>>;
let app: FastifyInstance;
let store: Store;
let token: string;
let appPort: number;
let httpPort: number;
const logged: LoggedRequest[] = [];

const nginxDir = () => path.join(dataDir, 'nginx');
const pidFile = () => path.join(nginxDir(), 'logs', 'nginx.pid');
const siteFile = () => path.join(nginxDir(), 'conf', 'site.conf');
const call = async (method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers:
      method === 'POST'
        ? await confirmed({ app, store, dataDir, close: async () => {} }, token)
        : bearer(token),
    payload,
  });
const viaNginx = (pathname: string, headers: Record<string, string> = {}) =>
  httpGet(`http://127.0.0.1:${httpPort}${pathname}`, headers);
const history = async () => (await call('GET', '/api/system/nginx/history')).json().data as NginxHistory;
/** The kinds of the Activity log's entries, newest first. */
const activityKinds = async (): Promise<string[]> =>
  (await call('GET', '/api/admin/activity?pageSize=100')).json().data.map((e: { kind: string }) => e.kind);

/** One TLS handshake with openssl s_client: whether it was agreed, and what openssl said. */
function tls(port: number, args: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      'openssl',
      ['s_client', '-connect', `127.0.0.1:${port}`, '-servername', 'localhost', ...args],
      { timeout: 10_000, env: { PATH: process.env.PATH ?? '' } },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        resolve({ ok: !error && /Cipher is (?!\(NONE\))/.test(output), output });
      },
    );
    child.stdin?.end();
  });
}

function httpsGet(port: number, pathname: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, path: pathname, rejectUnauthorized: false, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(!nginxBinary)('the web-server panel on a real nginx', () => {
  beforeAll(async () => {
    dataDir = await readableTempDir('nginx-live-');
    site = await makeStaticRoot();
    appPort = await freePort();
    httpPort = await freePort();
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: String(appPort),
      CLIENT_DIST_DIR: site.root,
      NGINX_LISTEN_ADDRESS: '127.0.0.1',
      PATH: process.env.PATH ?? '',
    });
    store = await openEmbeddedStore(dataDir);
    // The app's own request log says which client address it saw; at debug it logs every request.
    const stream = {
      write(line: string) {
        const entry = JSON.parse(line) as Partial<LoggedRequest>;
        if (entry.path && entry.ip) logged.push(entry as LoggedRequest);
      },
    };
    app = await buildApp({ config, store, logger: { level: 'debug', stream } });
    await app.listen({ port: appPort, host: '127.0.0.1' });
    token = (await createUser({ app, store, dataDir, close: async () => {} }, { role: 'admin' })).token;
  });

  afterAll(async () => {
    const left = await stopNginx(pidFile());
    const strays = await nginxProcessesUnder(nginxDir());
    await app?.close();
    await store?.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(site.root, { recursive: true, force: true });
    expect(left).toEqual([]);
    expect(strays).toEqual([]);
  });

  it('saves while stopped, then Restart starts nginx and status counts master and workers', async () => {
    const defaults = (await call('GET', '/api/system/config')).json().data;
    expect(defaults.proxyPass).toBe(`http://127.0.0.1:${appPort}`);
    const logged = (await activityKinds()).length;

    const saved = await call('POST', '/api/system/nginx/config', {
      ...defaults,
      port: httpPort,
      staticRoot: site.root,
    });
    expect(saved.json()).toMatchObject({ success: true, message: 'Nginx configuration saved successfully!' });
    expect((await call('GET', '/api/system/status')).json()).toMatchObject({
      running: false,
      state: 'stopped',
    });

    const restarted = await call('POST', '/api/system/restart');
    expect(restarted.json()).toEqual({
      success: true,
      action: 'started',
      message: 'Nginx restarted successfully!',
    });
    // One Activity entry for each change: the save, then the restart.
    const kinds = await activityKinds();
    expect(kinds.slice(0, kinds.length - logged)).toEqual(['nginx.restarted', 'nginx.saved']);
    const status = (await call('GET', '/api/system/status')).json();
    const master = await readPid(pidFile());
    expect(status).toMatchObject({ success: true, running: true, state: 'running' });
    expect(status.stats.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(status.stats.processes).toBe(1 + (await workerPids(master!)).length);
    expect(status.stats.processes).toBeGreaterThanOrEqual(2);
  });

  it('proxies a page and an API call to the app, passing the client address on', async () => {
    const page = await viaNginx('/');
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('<title>My Site</title>');
    // The page came from the app, not straight from the folder: it carries the app's security headers.
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");

    const api = await viaNginx('/api/slider/public', { 'x-forwarded-for': '203.0.113.7' });
    expect(api.status).toBe(200);
    expect(JSON.parse(api.body.toString()).success).toBe(true);
    const seen = logged.filter((entry) => entry.path === '/api/slider/public').at(-1);
    expect(seen?.ip).toBe('203.0.113.7');
  });

  it("passes the media library's copies (a folder whose name starts with a dot) to the app, and still hides dot files", async () => {
    // Picture and video copies live under /media/.copies/: the app decides what is there.
    const copy = await viaNginx('/media/.copies/image/missing.png/0-480.webp');
    expect(copy.status).toBe(404);
    expect(copy.headers['content-type']).toContain('application/json');
    expect(JSON.parse(copy.body.toString())).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect(logged.some((entry) => entry.path.startsWith('/media/.copies/'))).toBe(true);
    // Anything else named with a dot never leaves nginx.
    for (const hidden of ['/.git/config', '/assets/.env']) expect((await viaNginx(hidden)).status).toBe(403);
  });

  it('hands on a slideshow video as the app answers it: 512 KB at a time', async () => {
    const clip = Buffer.alloc(1_000_000, 7);
    await mkdir(path.join(dataDir, 'media', 'video'), { recursive: true });
    await writeFile(path.join(dataDir, 'media', 'video', 'long.mp4'), clip);
    const first = await viaNginx('/media/video/long.mp4', { range: 'bytes=0-' });
    expect(first.status).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-524287/${clip.length}`);
    expect(first.body.length).toBe(524288);
    const rest = await viaNginx('/media/video/long.mp4', { range: 'bytes=524288-' });
    expect(rest.body.length).toBe(clip.length - 524288);
  });

  it('serves the static root itself: gzip on the JS bundle, long-lived cache on hashed assets', async () => {
    const before = logged.length;
    const bundle = await viaNginx(site.bundle, { 'accept-encoding': 'gzip' });
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-encoding']).toBe('gzip');
    expect(bundle.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(bundle.headers['content-type']).toBe('application/javascript');
    expect(logged.length).toBeGreaterThan(0); // the app logs what reaches it...
    expect(logged.slice(before).some((entry) => entry.path === site.bundle)).toBe(false); // ...and this did not

    const hidden = await viaNginx('/.env');
    expect(hidden.status).toBe(403);

    // 16.19: a page nginx serves from the folder carries the app's own page headers.
    await mkdir(path.join(site.root, 'pages'), { recursive: true });
    await chmod(path.join(site.root, 'pages'), 0o755);
    await writeFile(path.join(site.root, 'pages', 'home.html'), '<!doctype html><title>Home</title>');
    const fromApp = await viaNginx('/');
    const fromNginx = await viaNginx('/pages/home.html');
    expect(fromNginx.status).toBe(200);
    expect(logged.slice(before).some((entry) => entry.path === '/pages/home.html')).toBe(false);
    expect(fromNginx.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    for (const header of [
      'content-security-policy',
      'x-frame-options',
      'x-content-type-options',
      'referrer-policy',
    ])
      expect(fromNginx.headers[header], header).toBe(fromApp.headers[header]);

    const saved = await call('POST', '/api/system/config', { gzipEnabled: false, cacheEnabled: false });
    expect(saved.statusCode).toBe(200);
    const plain = await viaNginx(site.bundle, { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(
      (await call('POST', '/api/system/config', { gzipEnabled: true, cacheEnabled: true })).statusCode,
    ).toBe(200);
  });

  it('refuses a config nginx -t rejects, with nginx’s error; the old file stays and the site answers', async () => {
    const sslDir = path.join(nginxDir(), 'ssl');
    await mkdir(sslDir, { recursive: true });
    await writeFile(path.join(sslDir, 'cert.pem'), 'this is not a certificate\n');
    await writeFile(path.join(sslDir, 'key.pem'), 'nor is this a key\n');
    const live = await readFile(siteFile(), 'utf8');
    const versions = (await history()).entries.length;

    const refused = await call('POST', '/api/system/config', { sslEnabled: true, sslPort: await freePort() });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().success).toBe(false);
    expect(refused.json().error).toMatch(
      /nginx rejected the configuration: nginx: \[emerg\] cannot load certificate/,
    );
    expect(await readFile(siteFile(), 'utf8')).toBe(live);
    expect((await history()).entries).toHaveLength(versions);
    expect((await call('GET', '/api/system/config')).json().data.sslEnabled).toBe(false);
    expect((await viaNginx('/api/health')).status).toBe(200);
    await rm(sslDir, { recursive: true });
  });

  it('restores the old file when the running nginx cannot take the new one (a port in use)', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const busy = (squatter.address() as { port: number }).port;
    const live = await readFile(siteFile(), 'utf8');
    try {
      const refused = await call('POST', '/api/system/config', { port: busy });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toContain(
        `bind() to 127.0.0.1:${busy} failed (98: Address already in use)`,
      );
    } finally {
      squatter.close();
    }
    expect(await readFile(siteFile(), 'utf8')).toBe(live);
    expect((await call('GET', '/api/system/config')).json().data.port).toBe(httpPort);
    expect((await viaNginx('/api/health')).status).toBe(200);
    expect((await call('GET', '/api/system/status')).json().state).toBe('running');
  });

  it('with SSL on, HTTPS answers on a trial certificate and HTTP redirects to it', async () => {
    const sslPort = await freePort();
    const saved = await call('POST', '/api/system/config', { sslEnabled: true, sslPort });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().warning).toContain('self-signed');

    const secure = await httpsGet(sslPort, '/api/health');
    expect(secure.status).toBe(200);
    expect(JSON.parse(secure.body.toString()).status).toBe('ok');
    expect(secure.headers['strict-transport-security']).toBeUndefined();
    // 16.18: to a configured name, never to whatever Host the client sent.
    const redirect = await viaNginx('/api/health?x=1');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe(`https://localhost:${sslPort}/api/health?x=1`);
    const forged = await viaNginx('/x', { host: 'evil.example' });
    expect(forged.headers.location).toBe(`https://localhost:${sslPort}/x`);
    expect(
      (await call('POST', '/api/system/config', { serverName: 'members.example www.members.example' }))
        .statusCode,
    ).toBe(200);
    expect((await viaNginx('/x', { host: 'www.members.example' })).headers.location).toBe(
      `https://www.members.example:${sslPort}/x`,
    );
    expect((await viaNginx('/x', { host: 'evil.example' })).headers.location).toBe(
      `https://members.example:${sslPort}/x`,
    );
    expect((await call('POST', '/api/system/config', { serverName: '_' })).statusCode).toBe(200);
    expect((await viaNginx('/x', { host: 'evil.example' })).headers.location).toBe(
      `https://127.0.0.1:${sslPort}/x`,
    );
    expect((await call('POST', '/api/system/config', { serverName: 'localhost' })).statusCode).toBe(200);

    // 16.17: Mozilla intermediate: TLS 1.2 with AEAD suites only, TLS 1.3, no session tickets.
    const handshake = (...args: string[]) => tls(sslPort, args);
    // (The trial certificate has an ECDSA key.)
    const aead = await handshake('-tls1_2', '-cipher', 'ECDHE-ECDSA-AES128-GCM-SHA256');
    expect(aead.ok, aead.output).toBe(true);
    expect(aead.output).not.toMatch(/TLS session ticket:/);
    expect((await handshake('-tls1_3')).ok).toBe(true);
    // Every suite that is not AEAD (the CBC ones testssl flagged) is refused.
    const cbc = await handshake('-tls1_2', '-cipher', 'ALL:!AESGCM:!AESCCM:!CHACHA20:!ARIAGCM:@SECLEVEL=0');
    expect(cbc.ok, cbc.output).toBe(false);
    expect((await handshake('-tls1_1', '-cipher', 'ALL:@SECLEVEL=0')).ok).toBe(false);

    expect((await call('POST', '/api/system/config', { sslEnabled: false })).statusCode).toBe(200);
    expect((await viaNginx('/api/health')).status).toBe(200);
  });

  it('Restart reloads a running nginx gracefully: same master, new workers, a download in flight completes', async () => {
    const master = await readPid(pidFile());
    const workersBefore = await workerPids(master!);
    let oldWorkerServing = false;
    const download = new Promise<number>((resolve, reject) => {
      get(`http://127.0.0.1:${httpPort}${site.bigFile}`, { agent: false }, (res) => {
        let bytes = 0;
        res.once('data', (chunk: Buffer) => {
          bytes += chunk.length;
          res.pause();
          // Reload while the old worker still owes most of the file.
          call('POST', '/api/system/restart')
            .then(async (restart) => {
              expect(restart.json().action).toBe('reloaded');
              for (const pid of workersBefore) if (await isNginxAlive(pid)) oldWorkerServing = true;
              res.on('data', (more: Buffer) => {
                bytes += more.length;
              });
              res.resume();
            })
            .catch(reject);
        });
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      }).on('error', reject);
    });
    expect(await download).toBe(site.bigSize);
    expect(oldWorkerServing).toBe(true);
    expect(await readPid(pidFile())).toBe(master);
    const workersAfter = await workerPids(master!);
    expect(workersAfter.some((pid) => !workersBefore.includes(pid))).toBe(true);
  });

  it('lists saved versions with who saved them, and restores one through the same tested path', async () => {
    const { entries, current } = await history();
    expect(entries.length).toBeGreaterThanOrEqual(5);
    expect(entries[0]!.rendered).toBe(current);
    expect(entries[0]!.savedBy).toMatch(/@example\.com$/);
    const withSsl = entries.find((entry) => entry.config.sslEnabled);
    expect(withSsl).toBeDefined();

    const first = entries.at(-1)!;
    const logged = (await activityKinds()).length;
    const restored = await call('POST', `/api/system/nginx/history/${first.id}/restore`);
    expect(restored.json()).toMatchObject({
      success: true,
      message: 'Nginx configuration saved successfully!',
    });
    const after = await history();
    expect(after.entries[0]).toMatchObject({ restoredFrom: first.id, config: first.config });
    expect(after.current).toBe(first.rendered);
    const kinds = await activityKinds();
    expect(kinds.slice(0, kinds.length - logged)).toEqual(['nginx.restored']);
    expect((await viaNginx('/api/health')).status).toBe(200);
    expect((await call('POST', '/api/system/nginx/history/0123456789ab/restore')).statusCode).toBe(404);
  });

  it('keeps reset tokens out of its access log, in the request line and the Referer (16.13)', async () => {
    const token = 'c2VjcmV0LXJlc2V0LXRva2VuLWZvci10aGUtbG9nLXRlc3Q';
    await viaNginx(`/reset-password/${token}`);
    await viaNginx(site.bundle, { referer: `http://localhost/reset-password/${token}` });
    const log = await readFile(path.join(nginxDir(), 'logs', 'access.log'), 'utf8');
    expect(log).toContain('"GET /reset-password/[token] HTTP/1.1"');
    expect(log).toContain('"http://localhost/reset-password/[token]"');
    expect(log).not.toContain(token);
  });

  it('status says Stopped after a stop, Error for a broken file or a crash, and Restart starts it again', async () => {
    expect(await stopNginx(pidFile())).toEqual([]);
    expect((await call('GET', '/api/system/status')).json()).toMatchObject({
      running: false,
      state: 'stopped',
    });

    const live = await readFile(siteFile(), 'utf8');
    await writeFile(siteFile(), `${live}\nnot_a_directive on;\n`);
    const broken = (await call('GET', '/api/system/status')).json();
    expect(broken.state).toBe('error');
    expect(broken.message).toMatch(/\[emerg\] unknown directive "not_a_directive"/);
    const refused = await call('POST', '/api/system/restart');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/unknown directive "not_a_directive"/);
    await writeFile(siteFile(), live);

    expect((await call('POST', '/api/system/restart')).json().action).toBe('started');
    const master = (await readPid(pidFile()))!;
    // The master first: killed after a worker, it would start a new one in between.
    const workers = await workerPids(master);
    for (const pid of [master, ...workers]) kill(pid, 'SIGKILL');
    for (const pid of [master, ...workers]) {
      for (let i = 0; i < 100 && (await isNginxAlive(pid)); i += 1)
        await new Promise((r) => setTimeout(r, 20));
    }
    const crashed = (await call('GET', '/api/system/status')).json();
    expect(crashed).toMatchObject({ running: false, state: 'error' });
    expect(crashed.message).toContain(`process ${master}`);

    const again = (await call('POST', '/api/system/restart')).json();
    expect(again, JSON.stringify(again)).toMatchObject({ action: 'started' });
    expect((await call('GET', '/api/system/status')).json().state).toBe('running');
  });

  it('after SIGKILL of the master, status counts the orphaned workers and Restart brings the site back on the same port', async () => {
    if ((await call('GET', '/api/system/status')).json().state !== 'running') {
      expect((await call('POST', '/api/system/restart')).json().action).toBe('started');
    }
    const master = (await readPid(pidFile()))!;
    const workers = await workerPids(master);
    expect(workers.length).toBeGreaterThanOrEqual(1);
    kill(master, 'SIGKILL');
    for (let i = 0; i < 100 && (await isNginxAlive(master)); i += 1)
      await new Promise((r) => setTimeout(r, 20));
    // The orphans still answer, with the old configuration.
    expect((await viaNginx('/api/health')).status).toBe(200);

    const orphaned = (await call('GET', '/api/system/status')).json();
    expect(orphaned).toMatchObject({ running: false, state: 'error' });
    expect(orphaned.stats.processes).toBe(workers.length);
    expect(orphaned.message).toMatch(/master process is gone/);
    for (const pid of workers) expect(orphaned.message).toContain(String(pid));

    const restarted = await call('POST', '/api/system/restart');
    expect(restarted.statusCode, restarted.body).toBe(200);
    expect(restarted.json().action).toBe('started');
    for (const pid of workers) expect(await isNginxAlive(pid)).toBe(false);
    const status = (await call('GET', '/api/system/status')).json();
    const newMaster = (await readPid(pidFile()))!;
    expect(status).toMatchObject({ running: true, state: 'running' });
    // Counted again once the new master has settled its workers.
    await expect
      .poll(async () => {
        const now = (await call('GET', '/api/system/status')).json();
        return now.stats.processes - (1 + (await workerPids(newMaster)).length);
      })
      .toBe(0);
    expect((await viaNginx('/api/health')).status).toBe(200);
    expect((await nginxProcessesUnder(nginxDir())).sort()).toEqual(
      [newMaster, ...(await workerPids(newMaster))].sort(),
    );
  });

  it('still names another program that holds the port', async () => {
    expect(await stopNginx(pidFile())).toEqual([]);
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(httpPort, '127.0.0.1', resolve));
    try {
      const refused = await call('POST', '/api/system/restart');
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatch(/Another program already listens on that port/);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    expect((await call('POST', '/api/system/restart')).json().action).toBe('started');
  });

  // As root nginx may bind any port, so this runs where the tests run unprivileged (as on most CI).
  it.skipIf(process.getuid?.() === 0)(
    'refuses a port below 1024 without the right to bind it, saying why',
    async () => {
      const live = await readFile(siteFile(), 'utf8');
      const refused = await call('POST', '/api/system/config', { port: 81 });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toContain('bind() to 127.0.0.1:81 failed (13: Permission denied)');
      expect(refused.json().error).toContain('Ports below 1024 need the right to bind them');
      expect(await readFile(siteFile(), 'utf8')).toBe(live);
    },
  );
});
