import type { ActivityEntry, ActivityKind } from '@common/schemas/activity';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtures, multipart } from '../../test/media-fixtures';
import { makeMediaFolder } from '../../test/media-folder';
import { bearer, confirmed, createTestApp, createUser, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';
import { ActivityRepository } from './activity.repository';
import { ActivityLog } from './activity.service';

let t: TestApp;
let admin: { user: UserDoc; token: string; password: string };
beforeEach(async () => {
  t = await createTestApp(
    { NGINX_BIN: '/nonexistent/nginx' },
    { requestRestart: async () => ({ started: true, port: 0 }) },
  );
  admin = await createUser(t, { email: 'owner@example.com', role: 'admin' });
});
afterEach(() => t.close());

const entries = async (query = '') =>
  (await t.app.inject({ url: `/api/admin/activity${query}`, headers: bearer(admin.token) })).json();

/** Runs one change and answers the Activity entries it added. */
async function added(change: () => Promise<{ statusCode: number; body: string }>): Promise<ActivityEntry[]> {
  const before = (await entries('?pageSize=100')).total as number;
  const response = await change();
  expect(response.statusCode, response.body).toBeLessThan(300);
  const after = await entries('?pageSize=100');
  return (after.data as ActivityEntry[]).slice(0, after.total - before);
}

const call = (method: string, url: string, payload?: object, headers = bearer(admin.token)) =>
  t.app.inject({ method: method as 'POST', url, payload, headers });

describe('the Activity log', () => {
  it('writes exactly one entry per change, with who, when, where and what, secrets redacted', async () => {
    const media = await makeMediaFolder(t.dataDir, ['image/a.png']);
    const proof = await confirmed(t, admin.token, admin.password);

    let memberId = '';
    let playlistId = '';
    const steps: Array<[ActivityKind, () => Promise<{ statusCode: number; body: string }>]> = [
      [
        'user.created',
        async () => {
          const r = await call('POST', '/api/admin/users', {
            name: 'Jane',
            email: 'jane@example.com',
            password: 'jane-secret-1',
          });
          memberId = r.json().data._id;
          return r;
        },
      ],
      ['user.updated', () => call('PUT', `/api/admin/users/${memberId}`, { password: 'new-secret-2' })],
      ['user.suspended', () => call('PUT', `/api/admin/users/${memberId}`, { status: 'suspended' })],
      ['user.role', () => call('PUT', `/api/admin/users/${memberId}`, { role: 'admin' }, proof)],
      ['user.deleted', () => call('DELETE', `/api/admin/users/${memberId}`, undefined, proof)],
      [
        'slider.saved',
        () =>
          call('PUT', '/api/slider/config', {
            backgroundsBasePath: media,
            activePlaylist: null,
            cycleTime: 9000,
            transitionDuration: 1500,
            overlayColor: '0,0,0',
            overlayOpacity: 0.2,
            randomOrder: false,
          }),
      ],
      [
        'playlist.created',
        async () => {
          const r = await call('POST', '/api/playlists', { name: 'Dawn', items: [], images: [], videos: [] });
          playlistId = r.json().data._id;
          return r;
        },
      ],
      [
        'playlist.updated',
        () => call('PUT', `/api/playlists/${playlistId}`, { items: [], images: [], videos: [] }),
      ],
      ['playlist.deleted', () => call('DELETE', `/api/playlists/${playlistId}`)],
      [
        'media.uploaded',
        () => {
          const form = multipart({ mediaType: 'image', basePath: media }, [
            { name: 'b.png', content: fixtures.png(), type: 'image/png' },
          ]);
          return t.app.inject({
            method: 'POST',
            url: '/api/media/upload',
            payload: form.payload,
            headers: { ...bearer(admin.token), ...form.headers },
          });
        },
      ],
      ['media.deleted', () => call('POST', '/api/media/delete', { basePath: media, paths: ['image/a.png'] })],
      [
        'nodejs.saved',
        () => call('POST', '/api/admin/nodejs/config', { sessionSecret: 's'.repeat(40) }, proof),
      ],
      ['nodejs.restarted', () => call('POST', '/api/admin/nodejs/restart', {}, proof)],
      [
        'signin.succeeded',
        () => call('POST', '/api/auth/login', { email: 'owner@example.com', password: admin.password }, {}),
      ],
    ];
    for (const [kind, change] of steps) {
      const made = await added(change);
      expect(
        made.map((e) => e.kind),
        kind,
      ).toEqual([kind]);
      expect(made[0]).toMatchObject({
        actorEmail: 'owner@example.com',
        actorId: admin.user._id,
        address: '127.0.0.1',
      });
      expect(Date.now() - Date.parse(made[0]!.at)).toBeLessThan(60_000);
      expect(made[0]!.summary.length).toBeGreaterThan(5);
    }

    const all = JSON.stringify((await entries('?pageSize=100')).data);
    expect(all).not.toContain('jane-secret-1');
    expect(all).not.toContain('new-secret-2');
    expect(all).not.toContain('s'.repeat(40));
    expect(all).not.toMatch(/\$argon2/);
  });

  it('records a wrong password confirmation, without the password', async () => {
    const made = await added(async () => {
      const r = await call('POST', '/api/auth/reauth', { password: 'not-it' });
      expect(r.statusCode).toBe(400);
      return { statusCode: 200, body: '' };
    });
    expect(made.map((e) => [e.kind, e.actorEmail])).toEqual([['reauth.failed', 'owner@example.com']]);
    expect(JSON.stringify(made)).not.toContain('not-it');
  });

  it('records failed sign-ins to an administrator’s account, and only those', async () => {
    const member = await createUser(t);
    const made = await added(async () => {
      await call('POST', '/api/auth/login', { email: 'owner@example.com', password: 'wrong' }, {});
      await call('POST', '/api/auth/login', { email: member.user.email, password: 'wrong' }, {});
      return { statusCode: 200, body: '' };
    });
    expect(made.map((e) => [e.kind, e.actorEmail])).toEqual([['signin.failed', 'owner@example.com']]);
  });

  it('filters by person, kind and date, newest first, paged, and exports CSV', async () => {
    const other = await createUser(t, { email: 'second@example.com', role: 'admin' });
    for (let i = 0; i < 30; i += 1) {
      await call('POST', '/api/playlists', { name: `P${i}`, items: [], images: [], videos: [] });
    }
    await call('POST', '/api/playlists', { name: 'Theirs' }, bearer(other.token));

    const page1 = await entries('?kind=playlist.created&pageSize=25');
    expect(page1).toMatchObject({ total: 31, totalPages: 2, currentPage: 1 });
    expect(page1.data[0].summary).toMatch(/"Theirs"/);
    const page2 = await entries('?kind=playlist.created&pageSize=25&page=2');
    expect(page2.data).toHaveLength(6);
    expect(page2.data.at(-1).summary).toMatch(/"P0"/);

    // Their sign-in and their playlist.
    expect((await entries('?actor=second@example.com')).total).toBe(2);
    expect((await entries('?actor=second@example.com&kind=signin.succeeded')).total).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    expect((await entries(`?kind=playlist.created&from=${today}&to=${today}`)).total).toBe(31);
    expect((await entries('?kind=playlist.created&to=2000-01-01')).total).toBe(0);
    expect((await entries('?pageSize=7')).success).toBe(false);

    const csv = await t.app.inject({
      url: '/api/admin/activity/export.csv?actor=second@example.com&kind=playlist.created',
      headers: bearer(admin.token),
    });
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/"second@example\.com","127\.0\.0\.1","Playlist created",/);
  });

  it('has no way to edit or delete an entry, and is for administrators only', async () => {
    const member = await createUser(t);
    expect(
      (await t.app.inject({ url: '/api/admin/activity', headers: bearer(member.token) })).statusCode,
    ).toBe(403);
    const id = (await entries()).data[0]?._id ?? 'x';
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
      const response = await t.app.inject({
        method,
        url: `/api/admin/activity/${id}`,
        headers: bearer(admin.token),
      });
      expect(response.statusCode, method).toBe(404);
    }
  });

  it('drops entries older than the retention period', async () => {
    const repository = new ActivityRepository(t.store);
    const log = new ActivityLog(repository, t.app.log, 365);
    await call('POST', '/api/playlists', { name: 'Kept' });
    const count = async () => (await entries()).total as number;
    const total = await count();
    expect(await log.prune(Date.now() + 364 * 86_400_000)).toBe(0);
    expect(await count()).toBe(total);
    expect(await log.prune(Date.now() + 366 * 86_400_000)).toBe(total);
    expect(await count()).toBe(0);
  });
});
