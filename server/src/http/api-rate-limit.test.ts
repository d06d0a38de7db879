import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APP_SERVER_DEFAULTS } from '@common/schemas/app-server';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../store/sqlite/store';
import type { Store } from '../store/store';
import { registerApiRateLimit } from './api-rate-limit';
import { registerErrorHandler } from './error-handler';
import { LiveSettings } from './live-settings';

const apps: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});
let dir = '';
let store: Store;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'api-rate-limit-'));
  store = await openEmbeddedStore(dir, () => undefined);
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** The rate limit alone, on a route that answers 304 to a repeat request as an ETag route does. */
async function appWithLimit(rateLimitMax: number) {
  const app = Fastify();
  apps.push(app);
  registerErrorHandler(app);
  registerApiRateLimit(app, {
    live: new LiveSettings({ ...APP_SERVER_DEFAULTS, rateLimitMax }),
    identify: async () => ({ kind: 'visitor' }),
    counters: store.counters,
  });
  app.post('/api/courses/lessons/:lessonId/position', { config: { ownRateLimit: true } }, async () => ({
    success: true,
  }));
  app.post('/api/courses/lessons/:lessonId/complete', async () => ({ success: true }));
  app.get('/api/versioned', (request, reply) =>
    request.headers['if-none-match'] === '"v1"'
      ? reply.code(304).send()
      : reply.header('etag', '"v1"').send({ success: true }),
  );
  await app.ready();
  return app;
}

describe('the general rate limit', () => {
  it("leaves a playing lesson's position saves out of the budget, and counts other writes", async () => {
    const app = await appWithLimit(2);
    const post = (url: string) => app.inject({ method: 'POST', url, remoteAddress: '10.9.9.9' });
    for (let i = 0; i < 5; i++)
      expect((await post('/api/courses/lessons/abc/position')).statusCode).toBe(200);
    expect((await post('/api/courses/lessons/abc/complete')).statusCode).toBe(200);
    expect((await post('/api/courses/lessons/abc/complete')).statusCode).toBe(200);
    expect((await post('/api/courses/lessons/abc/complete')).statusCode).toBe(429);
  });

  it('counts full answers and refunds the 304s of a client revalidating what it has', async () => {
    const app = await appWithLimit(3);
    const get = (headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: '/api/versioned', headers });

    expect((await get()).statusCode).toBe(200);
    for (let i = 0; i < 20; i++) expect((await get({ 'if-none-match': '"v1"' })).statusCode).toBe(304);
    expect((await get()).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(429);
  });
});

describe('the position saves left out of the general limit', () => {
  it('are known by their route: a query string ending in /position is still counted', async () => {
    const app = await appWithLimit(2);
    const post = (url: string) => app.inject({ method: 'POST', url, remoteAddress: '10.9.9.8' });
    expect((await post('/api/courses/lessons/abc/complete')).statusCode).toBe(200);
    expect((await post('/api/courses/lessons/abc/complete')).statusCode).toBe(200);
    const disguised = await post('/api/courses/lessons/abc/complete?x=/position');
    expect(disguised.statusCode).toBe(429);
    expect(disguised.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // The real position save still passes.
    expect((await post('/api/courses/lessons/abc/position?t=1')).statusCode).toBe(200);
  });
});
