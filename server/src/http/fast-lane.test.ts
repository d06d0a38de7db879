import { request } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { FastLane } from './fast-lane';
import { LiveSettings } from './live-settings';

const settings = { corsOrigin: '*', maxRequestSize: '50mb', rateLimitWindow: 60_000, rateLimitMax: 100 };

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A Fastify app behind a lane on /hot that answers 'lane' while `open()` says so. */
async function start(open: () => boolean = () => true, live = new LiveSettings(settings)) {
  const lane = new FastLane(live);
  app = Fastify({ serverFactory: lane.serverFactory, logger: { level: 'info', stream: { write() {} } } });
  lane.attachLogger(app.log);
  const seen: string[] = [];
  lane.add('/hot', (req, response, cors) => {
    if (!open()) return false;
    seen.push(`${req.method} ${cors.allowOrigin ?? '-'} ${cors.varyOrigin}`);
    response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '4' });
    response.end('lane');
    return true;
  });
  app.route({ method: ['GET', 'POST'], url: '/hot', handler: async () => 'fastify' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, seen, live };
}

function call(url: string, method = 'GET', headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; keepAlive: string }>((resolve, reject) => {
    request(url, { method, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body,
          keepAlive: String(response.headers['keep-alive']),
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('FastLane', () => {
  it('answers GET and HEAD of its exact path; anything else goes to Fastify', async () => {
    const { url, seen } = await start();
    expect((await call(`${url}/hot`)).body).toBe('lane');
    expect((await call(`${url}/hot`, 'HEAD')).status).toBe(200);
    expect((await call(`${url}/hot?x=1`)).body).toBe('fastify');
    expect((await call(`${url}/hot`, 'POST')).body).toBe('fastify');
    expect((await call(`${url}/hot/`)).status).toBe(404);
    expect(seen).toEqual(['GET - false', 'HEAD - false']);
  });

  it('lets Fastify answer when the lane has nothing ready', async () => {
    let ready = false;
    const { url } = await start(() => ready);
    expect((await call(`${url}/hot`)).body).toBe('fastify');
    ready = true;
    expect((await call(`${url}/hot`)).body).toBe('lane');
  });

  it('steps aside while the log is at debug, so that every request is logged', async () => {
    const { url } = await start();
    app!.log.level = 'debug';
    expect((await call(`${url}/hot`)).body).toBe('fastify');
    app!.log.level = 'info';
    expect((await call(`${url}/hot`)).body).toBe('lane');
  });

  it('gives the lane the CORS rule as it is set now', async () => {
    const { url, seen, live } = await start();
    await call(`${url}/hot`, 'GET', { origin: 'https://a.example' });
    live.update({ ...settings, corsOrigin: 'https://a.example' });
    await call(`${url}/hot`, 'GET', { origin: 'https://a.example' });
    await call(`${url}/hot`, 'GET', { origin: 'https://b.example' });
    await call(`${url}/hot`);
    expect(seen).toEqual(['GET * false', 'GET https://a.example true', 'GET - true', 'GET - true']);
  });

  it("keeps Fastify's keep-alive setting on the server it makes", async () => {
    const { url } = await start();
    expect(app!.server.keepAliveTimeout).toBe(72_000);
    expect((await call(`${url}/hot`)).keepAlive).toBe('timeout=72');
  });
});
