import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FastLane, type LaneAnswer } from '../../http/fast-lane';
import { API_SECURITY_HEADERS } from '../../http/security-headers';
import { makeMediaFolder } from '../../test/media-folder';
import { rawRequest } from '../../test/raw-request';
import { bearer, createTestApp, createUser, saveAppServerSettings, type TestApp } from '../../test/test-app';

// GET /api/slider/public is answered before Fastify over HTTP (http/fast-lane.ts); app.inject
// calls Fastify itself. Every answer the lane gives must be the one Fastify gives.

/** Headers that differ between two answers for reasons that are not the answer's. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

let t: TestApp;
let url: string;
const laneAnswered = vi.fn<(path: string) => void>();

beforeEach(async () => {
  // Counts the answers the lane gives, so that a request Fastify answered cannot pass for one.
  const add = FastLane.prototype.add;
  vi.spyOn(FastLane.prototype, 'add').mockImplementation(function (this: FastLane, at, answer) {
    const counted: LaneAnswer = (req, response, cors) => {
      const answered = answer(req, response, cors);
      if (answered) laneAnswered(at);
      return answered;
    };
    add.call(this, at, counted);
  });
  laneAnswered.mockClear();
  t = await createTestApp();
  // Enough slides for an answer past the compression threshold.
  const files = Array.from({ length: 30 }, (_, i) => `image/background-${i}.jpg`);
  await makeMediaFolder(t.dataDir, [...files, 'video/c.mp4']);
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.close();
});

type Answer = { status: number; headers: Record<string, unknown>; body: string };

const comparable = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_CONNECTION.has(name)));

function overHttp(method: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(`${url}/api/slider/public`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: comparable(response.headers),
          body: Buffer.concat(chunks).toString('base64'),
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

async function throughFastify(method: string, headers: Record<string, string>): Promise<Answer> {
  const response = await t.app.inject({ method: method as 'GET', url: '/api/slider/public', headers });
  return {
    status: response.statusCode,
    headers: comparable(response.headers),
    body: response.rawPayload.toString('base64'),
  };
}

/** The same request both ways: equal answers, and the HTTP one given by the lane. */
async function expectSameAnswer(method: string, headers: Record<string, string> = {}): Promise<Answer> {
  const before = laneAnswered.mock.calls.length;
  const lane = await overHttp(method, headers);
  expect(laneAnswered.mock.calls.length, 'answered by the lane').toBe(before + 1);
  expect(lane).toEqual(await throughFastify(method, headers));
  return lane;
}

describe('GET /api/slider/public before Fastify', () => {
  it('leaves a request announcing a body to Fastify: its body limit and timeouts, not the lane', async () => {
    await overHttp('GET', {});
    await expectSameAnswer('GET');
    const before = laneAnswered.mock.calls.length;
    const head = 'GET /api/slider/public HTTP/1.1\r\nHost: localhost\r\n';
    // A stranger announcing a body over 16 KB: 413 at once, and the connection closed.
    expect(await rawRequest(url, `${head}Content-Length: 1000000000\r\n\r\n`)).toEqual({
      status: 413,
      closed: true,
    });
    // A streamed body is answered without being read; past 16 KB the connection is closed.
    const streamed = await rawRequest(
      url,
      `${head}Transfer-Encoding: chunked\r\n\r\n5000\r\n${'x'.repeat(20_000)}`,
    );
    expect(streamed.closed).toBe(true);
    expect(laneAnswered.mock.calls.length, 'answered by the lane').toBe(before);
    // A GET without a body still takes the lane, an empty one said so or not.
    expect((await expectSameAnswer('GET')).status).toBe(200);
    expect((await expectSameAnswer('GET', { 'content-length': '0' })).status).toBe(200);
  });

  it('answers plain, brotli, gzip, HEAD and 304 exactly as Fastify does', async () => {
    // The first request builds the answer (through Fastify); from then on the lane has it.
    await overHttp('GET', {});
    const plain = await expectSameAnswer('GET');
    expect(plain.status).toBe(200);
    expect(plain.headers).toMatchObject({ ...API_SECURITY_HEADERS, 'cache-control': 'no-cache' });
    const br = await expectSameAnswer('GET', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    const gzip = await expectSameAnswer('GET', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const head = await expectSameAnswer('HEAD');
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(plain.headers['content-length']);
    const revalidated = await expectSameAnswer('GET', {
      'accept-encoding': 'br',
      'if-none-match': String(br.headers.etag),
    });
    expect(revalidated.status).toBe(304);
    // A tag of the same content in another encoding is the same content.
    expect((await expectSameAnswer('GET', { 'if-none-match': String(br.headers.etag) })).status).toBe(304);
  });

  it('applies the CORS rule as set now: any origin, a list, an origin not on it', async () => {
    await overHttp('GET', {});
    const any = await expectSameAnswer('GET', { origin: 'https://elsewhere.example' });
    expect(any.headers['access-control-allow-origin']).toBe('*');
    const admin = (await createUser(t, { role: 'admin' })).token;
    await saveAppServerSettings(t, admin, { corsOrigin: 'https://allowed.example' });
    const listed = await expectSameAnswer('GET', { origin: 'https://allowed.example' });
    expect(listed.headers).toMatchObject({
      'access-control-allow-origin': 'https://allowed.example',
      vary: 'Origin, Accept-Encoding',
    });
    const refused = await expectSameAnswer('GET', { origin: 'https://elsewhere.example' });
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers.vary).toBe('Origin, Accept-Encoding');
    const revalidated = await expectSameAnswer('GET', {
      origin: 'https://allowed.example',
      'if-none-match': String(listed.headers.etag),
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers['access-control-allow-origin']).toBe('https://allowed.example');
  });

  it('serves a change to the slideshow at once, as Fastify does', async () => {
    await overHttp('GET', {});
    const before = await expectSameAnswer('GET');
    const admin = bearer((await createUser(t, { role: 'admin' })).token);
    const config = (await t.app.inject({ method: 'GET', url: '/api/slider/config', headers: admin })).json()
      .data;
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/slider/config',
      headers: admin,
      payload: { ...config, cycleTime: 9000 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = await overHttp('GET', {});
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(JSON.parse(Buffer.from(after.body, 'base64').toString()).data.config.cycleTime).toBe(9000);
    await expectSameAnswer('GET');
  });
});
