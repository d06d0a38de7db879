import type { LessonView } from '@common/schemas/course-views';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCourse, buildCourse, LESSON_VIDEO, member } from '../../test/courses-kit';
import { bearer, createTestApp, type TestApp } from '../../test/test-app';
import { loadTokenKey } from '../sessions/token-service';
import { FileLinks } from './lesson-files/file-links';

let t: TestApp;
let admin: string;
let paid: BuiltCourse;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await member(t, { role: 'admin' })).token;
  paid = await buildCourse(t, admin, 'paid');
}, 60_000);
afterAll(() => t.close());

/** The member's lesson answer; the browser cookie it sets is kept, as a browser keeps it. */
let browser = '';
async function videoLink(token: string): Promise<{ url: string; view: LessonView; cookie: string }> {
  const response = await t.app.inject({
    url: `/api/courses/${paid.course.slug}/lessons/${paid.lessons.video}`,
    headers: bearer(token),
  });
  const view = response.json().data as LessonView;
  const set = String(response.headers['set-cookie'] ?? '');
  if (set) browser = set.split(';')[0]!;
  return { url: view.media!.url, view, cookie: set.split(';')[0]! };
}

const fetchRange = (url: string, range = 'bytes=0-1023', cookie = browser) =>
  t.app.inject({ method: 'GET', url, headers: { range, ...(cookie ? { cookie } : {}) } });

/** The session id of a sign-in token: its `jti`. */
const sessionOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti as string;

describe('signed links to lesson files', () => {
  it('serve byte ranges of the video to the member they were made for, privately', async () => {
    const { token } = await member(t, { tier: 'paid' });
    const { url, view } = await videoLink(token);
    expect(url).toMatch(/^\/lesson-files\/[0-9a-f]{24}\/welcome\.mp4\?h=/);
    expect(Date.parse(view.media!.expiresAt) - Date.now()).toBeGreaterThan(10 * 60 * 1000);
    const part = await fetchRange(url, 'bytes=1000-1999');
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${LESSON_VIDEO.length}`);
    expect(part.rawPayload.equals(LESSON_VIDEO.subarray(1000, 2000))).toBe(true);
    expect(part.headers['content-type']).toBe('video/mp4');
    expect(part.headers['cache-control']).toBe('private, no-store');
    expect(part.headers['x-content-type-options']).toBe('nosniff');
    const whole = await t.app.inject({ method: 'GET', url, headers: { cookie: browser } });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(LESSON_VIDEO)).toBe(true);
    expect((await fetchRange(url, `bytes=${LESSON_VIDEO.length}-`)).statusCode).toBe(416);
  });

  it('work only in the browser of the member they were made for, and name no one in clear', async () => {
    const alice = await member(t, { tier: 'paid' });
    const response = await t.app.inject({
      url: `/api/courses/${paid.course.slug}/lessons/${paid.lessons.video}`,
      headers: bearer(alice.token),
    });
    const url = (response.json().data as LessonView).media!.url;
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^lesson_browser=[\w-]{20,}; Path=\/lesson-files; HttpOnly; SameSite=Lax$/);
    const cookie = setCookie.split(';')[0]!;
    // The link names neither the member nor the session.
    expect(url).not.toContain(alice.user._id);
    expect(url).not.toContain(sessionOf(alice.token));
    expect(setCookie).not.toContain(sessionOf(alice.token));
    // Pasted elsewhere: no cookie, or another member's browser.
    const pasted = await fetchRange(url, 'bytes=0-99', '');
    expect(pasted.statusCode).toBe(403);
    expect(pasted.json().message).toBe(
      'This link has expired or is not yours. Open the lesson again for a fresh one.',
    );
    const bob = await member(t, { tier: 'paid' });
    const bobsBrowser = (await videoLink(bob.token)).cookie;
    expect(bobsBrowser).not.toBe(cookie);
    expect((await fetchRange(url, 'bytes=0-99', bobsBrowser)).statusCode).toBe(403);
    // Alice's own browser, seeking anywhere in the video.
    const part = await fetchRange(url, 'bytes=2000-2999', cookie);
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(LESSON_VIDEO.subarray(2000, 3000))).toBe(true);
    // Over HTTPS (behind the proxy), the cookie is Secure.
    const secure = await t.app.inject({
      url: `/api/courses/${paid.course.slug}/lessons/${paid.lessons.video}`,
      headers: { ...bearer(alice.token), 'x-forwarded-proto': 'https' },
    });
    expect(String(secure.headers['set-cookie'])).toContain('; Secure');
  });

  it('are refused once expired', async () => {
    const { user, token } = await member(t, { tier: 'paid' });
    const { view } = await videoLink(token);
    const links = new FileLinks(await loadTokenKey(t.dataDir, undefined));
    const sessionId = sessionOf(token);
    const old = links.sign(
      view.media!.id,
      'welcome.mp4',
      { userId: user._id, sessionId },
      Date.now() - 21 * 60 * 1000,
    );
    expect((await fetchRange(old.url)).statusCode).toBe(403);
    const fresh = links.sign(view.media!.id, 'welcome.mp4', { userId: user._id, sessionId });
    expect((await fetchRange(fresh.url)).statusCode).toBe(206);
  });

  it('are refused for anyone else, another file, or a changed expiry', async () => {
    const alice = await member(t, { tier: 'paid' });
    const bob = await member(t, { tier: 'paid' });
    const { url, view } = await videoLink(alice.token);
    const link = new URL(url, 'http://x');
    // Bob's sealed viewer in Alice's link: the signature no longer fits.
    const bobs = new URL((await videoLink(bob.token)).url, 'http://x');
    const asBob = new URL(link);
    asBob.searchParams.set('h', bobs.searchParams.get('h')!);
    expect((await fetchRange(asBob.pathname + asBob.search)).statusCode).toBe(403);
    await videoLink(alice.token);
    const visitor = new URL(link);
    visitor.searchParams.set('h', '-');
    expect((await fetchRange(visitor.pathname + visitor.search)).statusCode).toBe(403);
    const later = new URL(link);
    later.searchParams.set('e', String(Number(link.searchParams.get('e')) + 3600));
    expect((await fetchRange(later.pathname + later.search)).statusCode).toBe(403);
    const otherFile = url.replace(view.media!.id, view.downloads[0]!.id);
    expect((await fetchRange(otherFile)).statusCode).toBe(403);
    // Signing out ends the session the link belongs to.
    expect((await fetchRange(url)).statusCode).toBe(206);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(alice.token) });
    expect((await fetchRange(url)).statusCode).toBe(403);
  });

  it('stop working at once when the member is made free, and work again when paid', async () => {
    const { user, token } = await member(t, { tier: 'paid' });
    const { url } = await videoLink(token);
    expect((await fetchRange(url)).statusCode).toBe(206);
    const setTier = async (membershipTier: 'free' | 'paid') => {
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/users/${user._id}`,
        headers: bearer(admin),
        payload: { membershipTier },
      });
      expect(response.statusCode).toBe(200);
    };
    await setTier('free');
    const refused = await fetchRange(url, 'bytes=2048-4095');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('ftyp');
    // The lesson answer itself now carries no link.
    const view = (await videoLink(token).catch(() => null))?.view;
    expect(view).toBeUndefined();
    const locked = await t.app.inject({
      url: `/api/courses/${paid.course.slug}/lessons/${paid.lessons.video}`,
      headers: bearer(token),
    });
    expect(locked.json().data).toMatchObject({ lock: { reason: 'upgrade' }, media: null });
    await setTier('paid');
    expect((await fetchRange(url)).statusCode).toBe(206);
  });

  it('stop working for a suspended member and when the file is removed from the lesson', async () => {
    const { user, token } = await member(t, { tier: 'paid' });
    const { url, view } = await videoLink(token);
    const download = view.downloads[0]!.url;
    expect((await fetchRange(download, 'bytes=0-3')).statusCode).toBe(206);
    await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${user._id}`,
      headers: bearer(admin),
      payload: { status: 'suspended' },
    });
    expect((await fetchRange(url)).statusCode).toBe(403);
    const other = await member(t, { tier: 'paid' });
    const fresh = await videoLink(other.token);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/courses/${paid.course.id}/lessons/${paid.lessons.video}/files/${fresh.view.downloads[0]!.id}`,
      headers: bearer(admin),
    });
    expect(removed.statusCode).toBe(200);
    expect((await fetchRange(fresh.view.downloads[0]!.url, 'bytes=0-3')).statusCode).toBe(404);
  });

  it('are never given for a lesson the member cannot open, and free previews get visitor links', async () => {
    const visitor = await t.app.inject({
      url: `/api/courses/${paid.course.slug}/lessons/${paid.lessons.preview}`,
    });
    const view = visitor.json().data as LessonView;
    expect(view.lock).toBeNull();
    expect(view.downloads[0]!.url).toContain('h=-');
    const pdf = await t.app.inject({ method: 'GET', url: view.downloads[0]!.url });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-disposition']).toBe("attachment; filename*=UTF-8''workbook.pdf");
    // Made a regular lesson again, the preview's visitor link stops working.
    await t.app.inject({
      method: 'PUT',
      url: `/api/admin/courses/${paid.course.id}/lessons/${paid.lessons.preview}`,
      headers: bearer(admin),
      payload: { freePreview: false },
    });
    expect((await t.app.inject({ method: 'GET', url: view.downloads[0]!.url })).statusCode).toBe(403);
  });
});
