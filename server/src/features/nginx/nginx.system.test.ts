import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/free-port';
import {
  httpGet,
  makeStaticRoot,
  nginxForTests,
  nginxProcessesUnder,
  readableTempDir,
  stopNginx,
} from '../../test/real-nginx';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';

// A "system" nginx laid out like Debian's /etc/nginx (main file, sites-enabled/*.conf with a
// site that is not ours), in a temporary folder and on free ports.
const nginxBinary = await nginxForTests();

let t: TestApp;
let token: string;
let etc: string;
let site: Awaited<ReturnType<typeof makeStaticRoot>>;
let port: number;
let otherPort: number;

const files = () => ({
  main: path.join(etc, 'nginx.conf'),
  members: path.join(etc, 'sites-enabled', 'members-site.conf'),
  pid: path.join(etc, 'run', 'nginx.pid'),
  log: path.join(etc, 'log', 'error.log'),
});
const call = async (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: method === 'POST' ? await confirmed(t, token) : bearer(token),
    payload,
  });

describe.skipIf(!nginxBinary)('a system nginx named by NGINX_CONF and NGINX_SITE_FILE', () => {
  beforeAll(async () => {
    etc = await readableTempDir('nginx-etc-');
    site = await makeStaticRoot();
    [port, otherPort] = [await freePort(), await freePort()];
    for (const folder of ['sites-enabled', 'run', 'log', 'temp']) await mkdir(path.join(etc, folder));
    const { main, pid, log } = files();
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (name) => `${name}_temp_path ${etc}/temp/${name};`,
    );
    await writeFile(
      main,
      `pid ${pid};\nerror_log ${log} notice;\nevents {}\nhttp {\n${temp.join('\n')}\n` +
        `access_log off;\ninclude ${etc}/sites-enabled/*.conf;\n}\n`,
    );
    await writeFile(
      path.join(etc, 'sites-enabled', 'other.conf'),
      `server { listen 127.0.0.1:${otherPort}; return 200 "another site"; }\n`,
    );
    t = await createTestApp({
      NGINX_CONF: main,
      NGINX_SITE_FILE: files().members,
      NGINX_PID_FILE: pid,
      NGINX_ERROR_LOG: log,
      NGINX_RELOAD_CMD: JSON.stringify([nginxBinary, '-c', main, '-s', 'reload']),
      NGINX_LISTEN_ADDRESS: '127.0.0.1',
      // The static root nginx may serve is the built client (or inside a media root).
      CLIENT_DIST_DIR: site.root,
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    token = (await createUser(t, { role: 'admin' })).token;
  });

  afterAll(async () => {
    const left = await stopNginx(files().pid);
    const strays = await nginxProcessesUnder(etc);
    await t?.close();
    await rm(etc, { recursive: true, force: true });
    await rm(site.root, { recursive: true, force: true });
    expect(left).toEqual([]);
    expect(strays).toEqual([]);
  });

  it('writes only its own file, starts the system nginx, then reloads it with NGINX_RELOAD_CMD', async () => {
    const appPort = t.app.server.address() as { port: number };
    const saved = await call('POST', '/api/system/config', {
      port,
      staticRoot: site.root,
      proxyPass: `http://127.0.0.1:${appPort.port}`,
    });
    expect(saved.json()).toMatchObject({ success: true });
    expect((await call('GET', '/api/system/status')).json()).toMatchObject({
      mode: 'system',
      state: 'stopped',
    });
    expect((await call('POST', '/api/system/restart')).json().action).toBe('started');
    expect((await call('GET', '/api/system/status')).json()).toMatchObject({
      state: 'running',
      running: true,
    });
    expect((await httpGet(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    expect((await httpGet(`http://127.0.0.1:${otherPort}/`)).body.toString()).toBe('another site');

    expect((await call('POST', '/api/system/config', { maxBodySize: '64M' })).statusCode).toBe(200);
    expect(await readFile(files().members, 'utf8')).toContain('client_max_body_size 64M;');
    expect((await call('POST', '/api/system/restart')).json().action).toBe('reloaded');
  });

  it('puts the previous file back when nginx -t rejects the whole configuration', async () => {
    const live = await readFile(files().members, 'utf8');
    // Another site defining an upstream of the same name: only the whole configuration shows the clash.
    await writeFile(
      path.join(etc, 'sites-enabled', 'clash.conf'),
      'upstream members_site_app { server 127.0.0.1:1; }\n',
    );
    const refused = await call('POST', '/api/system/config', { maxBodySize: '32M' });
    await rm(path.join(etc, 'sites-enabled', 'clash.conf'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(
      /nginx rejected the configuration: nginx: \[emerg\] duplicate upstream/,
    );
    expect(await readFile(files().members, 'utf8')).toBe(live);
    expect((await httpGet(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  });
});
