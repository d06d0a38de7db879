import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NginxConfig } from '@common/nginx-defaults';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nginxForTests } from '../../test/real-nginx';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import { HISTORY_LIMIT } from './nginx-store';

const nginxBinary = await nginxForTests();
const canBindPort80 =
  process.getuid?.() === 0 ||
  Number(await readFile('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8').catch(() => '1024')) <= 80;

let t: TestApp;
let admin: string;
let mediaRoot: string;
let staticRoot: string;

async function start(env: Record<string, string> = {}) {
  // A media root of its own (not the whole temp folder, which may hold this very checkout).
  mediaRoot = await mkdtemp(path.join(tmpdir(), 'nginx-media-root-'));
  t = await createTestApp({ MEDIA_ROOTS: mediaRoot, ...env });
  admin = (await createUser(t, { role: 'admin' })).token;
  staticRoot = path.join(mediaRoot, 'site');
  await mkdir(staticRoot, { recursive: true });
}
afterEach(async () => {
  await t.close();
  await rm(mediaRoot, { recursive: true, force: true });
});

/** One password confirmation per app, reused for 10 minutes as the console does. */
const proofs = new WeakMap<TestApp, Record<string, string>>();
async function adminProof(): Promise<Record<string, string>> {
  const known = proofs.get(t) ?? (await confirmed(t, admin));
  proofs.set(t, known);
  return known;
}
/** An administrator's changes go with the password confirmation, as the console sends them. */
const call = async (method: 'GET' | 'POST', url: string, payload?: object, token = admin) =>
  t.app.inject({
    method,
    url,
    headers: method === 'POST' && token === admin ? await adminProof() : bearer(token),
    payload,
  });
/** Everything under DATA_DIR/nginx, with contents: "nothing written" is checked against this. */
async function nginxFiles(): Promise<Record<string, string>> {
  const dir = path.join(t.dataDir, 'nginx');
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (!file.includes(`${path.sep}logs${path.sep}`)) files[file] = await readFile(file, 'utf8');
  }
  return files;
}

describe('the /api/system calls', () => {
  beforeEach(() => start());

  it('answer only administrators: 401 without a token, 403 for a member, unknown paths too', async () => {
    const member = (await createUser(t)).token;
    const calls: Array<['GET' | 'POST', string]> = [
      ['GET', '/api/system/config'],
      ['GET', '/api/system/status'],
      ['POST', '/api/system/config'],
      ['POST', '/api/system/nginx/config'],
      ['POST', '/api/system/restart'],
      ['GET', '/api/system/nginx/history'],
      ['POST', '/api/system/nginx/history/0123456789ab/restore'],
      ['GET', '/api/system/no-such-thing'],
    ];
    for (const [method, url] of calls) {
      expect((await t.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, undefined, member)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await nginxFiles()).toEqual({});
  });

  it('GET /config answers the spec defaults, the proxy following the app port', async () => {
    const response = await call('GET', '/api/system/config');
    expect(response.json()).toEqual({
      success: true,
      data: {
        serverName: 'localhost',
        port: 80,
        sslPort: 443,
        sslEnabled: false,
        proxyPass: 'http://127.0.0.1:5001',
        staticRoot: expect.stringMatching(/dist\/client$/),
        maxBodySize: '512M',
        gzipEnabled: true,
        cacheEnabled: true,
      },
    });
  });

  const hostile: Record<keyof NginxConfig, unknown[]> = {
    serverName: [
      'example.com; include /etc/passwd',
      'example.com\nserver_name evil.com',
      'example.com\r',
      'a}',
      '{',
      '$host',
      'a#comment',
      '"quoted"',
      "'quoted'",
      'back\\slash',
      'tab\tname',
      '',
      { $ne: null },
    ],
    port: [
      '80; include /etc/nginx/x',
      '80\n',
      '$server_port',
      '8080}',
      0,
      70000,
      80.5,
      -1,
      true,
      '1e3',
      '80abc',
    ],
    sslPort: ['443;', '443 ssl; include /etc/passwd', 99999, null, '1e3', '44 3'],
    proxyPass: [
      'http://127.0.0.1:5001; include /etc/passwd',
      'http://127.0.0.1:5001$request_uri',
      'http://127.0.0.1:5001/\nreturn 200',
      'http://127.0.0.1:5001/x{',
      'http://127.0.0.1:99999',
      'unix:/var/run/app.sock',
      'javascript:alert(1)',
      'http://user@host:1',
      'http://127.0.0.1:5001/..',
      'http://127.0.0.1:5001/a/../b',
      '',
      // Several addresses: each one on its own allow-list, the same one never twice.
      'http://127.0.0.1:5001 http://127.0.0.1:5002; include /etc/passwd',
      'http://127.0.0.1:5001 http://127.0.0.1:5002\ninclude /etc/passwd',
      'http://127.0.0.1:5001 unix:/var/run/app.sock',
      'http://127.0.0.1:5001 http://127.0.0.1:5001',
      'http://127.0.0.1:5001 https://127.0.0.1:5002',
    ],
    staticRoot: [
      '/var/www;',
      '/var/www\ninclude /etc/passwd',
      '/var/$uri',
      'relative/folder',
      '/var/www/../../etc',
      '/var/"www"',
      '/var/www#x',
    ],
    maxBodySize: ['512M;', '512M\n', '1G include /etc/passwd', '$request_length', '-1', '512MB', '1.5G', 512],
    sslEnabled: ['true', 1, 'on'],
    gzipEnabled: ['false', 0],
    cacheEnabled: ['yes', null],
  };

  it('refuses hostile values in every field with a 400 naming it, and writes nothing', async () => {
    for (const [field, values] of Object.entries(hostile)) {
      for (const value of values) {
        for (const url of ['/api/system/config', '/api/system/nginx/config']) {
          const response = await call('POST', url, { staticRoot, [field]: value });
          const label = `${field} = ${JSON.stringify(value)}`;
          expect(response.statusCode, label).toBe(400);
          expect(response.json(), label).toMatchObject({ success: false, field });
          expect(response.json().error, label).toBe(response.json().message);
        }
      }
    }
    // Of several proxy addresses, the refusal names the places of those at fault for the panel.
    const repeated = await call('POST', '/api/system/config', {
      staticRoot,
      proxyPass: 'http://127.0.0.1:5001 http://127.0.0.1:5002 http://127.0.0.1:5001',
    });
    expect(repeated.json()).toMatchObject({ field: 'proxyPass', targets: [2] });
    const notAnObject = await call('POST', '/api/system/config', ['serverName'] as unknown as object);
    expect(notAnObject.statusCode).toBe(400);
    expect(notAnObject.json().field).toBeUndefined();
    expect(await nginxFiles()).toEqual({});
  });

  it('refuses a static root that would publish the data folder or a system folder', async () => {
    for (const [root, words] of [
      [t.dataDir, "app's data folder"],
      [path.join(t.dataDir, 'media'), "app's data folder"],
      ['/', 'system folder'],
      ['/etc', 'system folder'],
      ['/proc/self', 'system folder'],
      ['/no/such/folder', 'existing folder'],
      // 16.20: anything else that is neither the built client nor inside a media root.
      ['/root', 'built web client'],
      ['/var/lib', 'built web client'],
      [path.resolve(import.meta.dirname, '../../../..'), 'built web client'],
    ] as const) {
      await mkdir(path.join(t.dataDir, 'media'), { recursive: true });
      const response = await call('POST', '/api/system/config', { staticRoot: root });
      expect(response.statusCode, root).toBe(400);
      expect(response.json(), root).toMatchObject({ field: 'staticRoot' });
      expect(response.json().error, root).toContain(words);
    }
  });
});

describe.skipIf(!nginxBinary)('saving with nginx installed (not running)', () => {
  beforeEach(() => start({ PORT: '6123' }));

  // Port 80 is a real port: `nginx -t` binds it, so only a user allowed to bind it can save it.
  it.skipIf(!canBindPort80)(
    'parses ports as integers, falling back to 80 and 443 when they are not numbers',
    async () => {
      const defaults = (await call('GET', '/api/system/config')).json().data;
      expect(defaults.proxyPass).toBe('http://127.0.0.1:6123');
      const saved = await call('POST', '/api/system/config', { staticRoot, port: 'eighty', sslPort: 'x' });
      expect(saved.json(), saved.body).toMatchObject({ success: true, data: { port: 80, sslPort: 443 } });
      const again = await call('POST', '/api/system/nginx/config', { port: '8080', sslPort: 8443 });
      expect(again.json().data).toMatchObject({ port: 8080, sslPort: 8443 });
      expect((await call('GET', '/api/system/config')).json().data).toMatchObject({
        port: 8080,
        sslPort: 8443,
        staticRoot,
      });
      const site = await readFile(path.join(t.dataDir, 'nginx', 'conf', 'site.conf'), 'utf8');
      expect(site).toContain('listen 8080;');
      expect(site).toContain('server 127.0.0.1:6123;');
    },
  );

  it('keeps the last 20 saved versions, newest first, with who saved them; a hostile save adds none', async () => {
    for (let i = 1; i <= HISTORY_LIMIT + 2; i += 1) {
      const response = await call('POST', '/api/system/config', {
        staticRoot,
        port: 8080,
        maxBodySize: `${i}M`,
      });
      expect(response.statusCode).toBe(200);
    }
    const before = await nginxFiles();
    expect(
      (await call('POST', '/api/system/config', { maxBodySize: '1M; include /etc/passwd' })).statusCode,
    ).toBe(400);
    expect(await nginxFiles()).toEqual(before);

    const { entries, current } = (await call('GET', '/api/system/nginx/history')).json().data;
    expect(entries).toHaveLength(HISTORY_LIMIT);
    expect(entries[0].config.maxBodySize).toBe(`${HISTORY_LIMIT + 2}M`);
    expect(entries.at(-1).config.maxBodySize).toBe('3M');
    expect(entries[0].savedBy).toMatch(/@example\.com$/);
    expect(Date.parse(entries[0].savedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(current).toBe(entries[0].rendered);
    expect(current).toContain('client_max_body_size 22M;');
  });

  it('refuses the same port for HTTP and HTTPS', async () => {
    const response = await call('POST', '/api/system/config', {
      staticRoot,
      sslEnabled: true,
      port: 8443,
      sslPort: 8443,
    });
    expect(response.json()).toMatchObject({ success: false, field: 'sslPort' });
  });
});

describe('without nginx on the machine', () => {
  const missing: Array<Record<string, string>> = [
    { NGINX_BIN: 'nginx', PATH: '/nonexistent' },
    { NGINX_BIN: '/nonexistent/nginx' },
  ];
  for (const env of missing) {
    it(`status is Unknown with the reason, save and restart say so (${JSON.stringify(env)})`, async () => {
      await start(env);
      const status = (await call('GET', '/api/system/status')).json();
      expect(status).toMatchObject({
        success: true,
        running: false,
        state: 'unknown',
        stats: { version: null, processes: 0 },
      });
      expect(status.message).toMatch(/^nginx is not installed: /);

      for (const [url, body] of [
        ['/api/system/config', { staticRoot }],
        ['/api/system/restart', undefined],
      ] as const) {
        const response = await call('POST', url, body);
        expect(response.statusCode).toBe(503);
        expect(response.json().success).toBe(false);
        expect(response.json().error).toMatch(/^nginx is not installed: /);
      }
      expect(await nginxFiles()).toEqual({});
    });
  }
});
