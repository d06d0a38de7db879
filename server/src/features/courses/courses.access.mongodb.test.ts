import type { CourseAccess } from '@common/courses';
import type { CourseDetail, LessonView, LockReason } from '@common/schemas/course-views';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bothStores } from '../../test/both-stores';
import { type BuiltCourse, buildCourse, member } from '../../test/courses-kit';
import { bearer, createTestApp, type TestApp } from '../../test/test-app';

type Who = 'visitor' | 'free' | 'paid' | 'free, 10 days in' | 'paid, 10 days in' | 'admin';
type LessonName = keyof BuiltCourse['lessons'];
type Expected = 'open' | LockReason;

/** What each person may open, by the course's access and the lesson: the rules as a table. */
function expected(who: Who, access: CourseAccess, lesson: LessonName): Expected {
  if (who === 'admin' || lesson === 'preview') return 'open';
  const tier = who.startsWith('paid') ? 'paid' : who.startsWith('free') ? 'free' : 'visitor';
  if (access === 'members' && tier === 'visitor') return 'sign-in';
  if (access === 'paid' && tier !== 'paid') return 'upgrade';
  if (lesson === 'dateFuture') return 'drip';
  if (lesson === 'dripDays') return who.includes('10 days') ? 'open' : 'drip';
  return 'open';
}

const WHO: Who[] = ['visitor', 'free', 'paid', 'free, 10 days in', 'paid, 10 days in', 'admin'];
const ACCESS: CourseAccess[] = ['public', 'members', 'paid'];
const LESSONS: LessonName[] = ['preview', 'video', 'dripDays', 'dateFuture', 'datePast'];

const { stores, closeStandIns } = bothStores('courses-access');

describe.each(stores)('who may open what, on the %s', (_store, openStore) => {
  let t: TestApp;
  const tokens = new Map<Who, string | null>();
  const courses = new Map<CourseAccess, BuiltCourse>();

  beforeAll(async () => {
    t = await createTestApp({}, { openStore });
    const admin = await member(t, { role: 'admin', tier: 'paid' });
    tokens.set('admin', admin.token);
    tokens.set('visitor', null);
    tokens.set('free', (await member(t, { tier: 'free' })).token);
    tokens.set('paid', (await member(t, { tier: 'paid' })).token);
    tokens.set('free, 10 days in', (await member(t, { tier: 'free', daysAgo: 10 })).token);
    tokens.set('paid, 10 days in', (await member(t, { tier: 'paid', daysAgo: 10 })).token);
    for (const access of ACCESS) courses.set(access, await buildCourse(t, admin.token, access));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await closeStandIns();
  });

  const get = (url: string, who: Who) => {
    const token = tokens.get(who);
    return t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
  };

  const rows = WHO.flatMap((who) =>
    ACCESS.flatMap((access) => LESSONS.map((lesson) => [who, access, lesson] as const)),
  );

  it.each(rows)('%s · %s course · %s lesson', async (who, access, lesson) => {
    const built = courses.get(access)!;
    const want = expected(who, access, lesson);
    const lessonId = built.lessons[lesson];

    // The outline says the same as the lesson itself.
    const outline = (await get(`/api/courses/${built.course.slug}`, who)).json().data as CourseDetail;
    const entry = outline.sections.flatMap((s) => s.lessons).find((l) => l.id === lessonId)!;
    expect(entry.lock?.reason ?? 'open').toBe(want);
    expect(entry.title).toBe(lesson);

    const response = await get(`/api/courses/${built.course.slug}/lessons/${lessonId}`, who);
    expect(response.statusCode).toBe(200);
    const view = response.json().data as LessonView;
    expect(view.lock?.reason ?? 'open').toBe(want);
    if (want === 'open') {
      expect(view.html).toContain(`SECRET ${lesson}`);
    } else {
      // A locked lesson is its outline entry: title, duration, why and when, never its text or files.
      expect(response.body).not.toContain('SECRET');
      expect(response.body).not.toContain('/lesson-files/');
      expect(view).toMatchObject({ title: lesson, durationMinutes: 5, html: '', media: null, downloads: [] });
      expect(view.lock!.message.length).toBeGreaterThan(5);
      if (want === 'drip' && lesson === 'dateFuture') expect(view.lock!.opensAt).toBeDefined();
    }
    // The browser cookie the lesson answer sets goes with the links, as a browser sends it.
    const cookie = String(response.headers['set-cookie'] ?? '').split(';')[0]!;
    for (const link of [view.media, ...view.downloads].filter((l) => l !== null)) {
      const file = await t.app.inject({
        method: 'GET',
        url: link.url,
        headers: { range: 'bytes=0-99', ...(cookie ? { cookie } : {}) },
      });
      expect(file.statusCode).toBe(206);
      expect(file.rawPayload.length).toBe(Math.min(100, link.size));
    }
  });

  it('a draft course is the administrator’s only', async () => {
    const admin = tokens.get('admin')!;
    const draft = await t.app.inject({
      method: 'POST',
      url: '/api/admin/courses',
      headers: bearer(admin),
      payload: { title: 'Not ready yet' },
    });
    const slug = draft.json().data.slug as string;
    for (const who of WHO.filter((w) => w !== 'admin')) {
      expect((await get(`/api/courses/${slug}`, who)).statusCode).toBe(404);
      const list = (await get('/api/courses', who)).json().data as Array<{ slug: string }>;
      expect(list.map((c) => c.slug)).not.toContain(slug);
    }
    expect((await get(`/api/courses/${slug}`, 'admin')).statusCode).toBe(200);
  });

  it('the catalogue tells each person Start or Locked, and why', async () => {
    const status = async (who: Who) =>
      Object.fromEntries(
        (
          (await get('/api/courses', who)).json().data as Array<{
            access: string;
            status: string;
            lock: { reason: string } | null;
          }>
        ).map((c) => [c.access, c.lock ? `locked:${c.lock.reason}` : c.status]),
      );
    expect(await status('visitor')).toEqual({
      public: 'start',
      members: 'locked:sign-in',
      paid: 'locked:upgrade',
    });
    expect(await status('free')).toEqual({ public: 'start', members: 'start', paid: 'locked:upgrade' });
    expect(await status('paid')).toEqual({ public: 'start', members: 'start', paid: 'start' });
  });

  it('an administrator previews as a visitor, a free member or a paid member', async () => {
    const built = courses.get('paid')!;
    const as = async (preview: string) => {
      const response = await get(
        `/api/courses/${built.course.slug}/lessons/${built.lessons.video}?as=${preview}`,
        'admin',
      );
      return (response.json().data as LessonView).lock?.reason ?? 'open';
    };
    expect(await as('visitor')).toBe('upgrade');
    expect(await as('free')).toBe('upgrade');
    expect(await as('paid')).toBe('open');
    const dripped = await get(
      `/api/courses/${built.course.slug}/lessons/${built.lessons.dripDays}?as=paid`,
      'admin',
    );
    expect((dripped.json().data as LessonView).lock?.reason).toBe('drip');
    // A member asking to preview is just themselves.
    const free = await get(
      `/api/courses/${built.course.slug}/lessons/${built.lessons.video}?as=paid`,
      'free',
    );
    expect((free.json().data as LessonView).lock?.reason).toBe('upgrade');
  });
});
