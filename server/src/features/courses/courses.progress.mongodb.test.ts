import type {
  AdminCourseRow,
  CompleteResult,
  CourseDetail,
  LessonView,
  MemberHome,
} from '@common/schemas/course-views';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bothStores } from '../../test/both-stores';
import { type BuiltCourse, buildCourse, member } from '../../test/courses-kit';
import { bearer, createTestApp, type TestApp } from '../../test/test-app';

const { stores, closeStandIns } = bothStores('courses-progress');

describe.each(stores)('progress, resume and drip, on the %s', (_store, openStore) => {
  let t: TestApp;
  let admin: string;
  let course: BuiltCourse;

  beforeAll(async () => {
    t = await createTestApp({}, { openStore });
    admin = (await member(t, { role: 'admin' })).token;
    course = await buildCourse(t, admin, 'members');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await closeStandIns();
  });

  const call = async <T>(token: string, method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const response = await t.app.inject({ method, url, headers: bearer(token), payload: payload as object });
    if (response.statusCode !== 200)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json().data as T;
  };
  const lessonOf = (token: string, id: string) =>
    call<LessonView>(token, 'GET', `/api/courses/${course.course.slug}/lessons/${id}`);
  const numbers = async () =>
    (await call<AdminCourseRow[]>(admin, 'GET', '/api/admin/courses')).find(
      (row) => row.id === course.course.id,
    )!;

  it('keeps the playing position, and resumes there from another session', async () => {
    const { token, user } = await member(t, { tier: 'free' });
    const saved = await call(token, 'POST', `/api/courses/lessons/${course.lessons.video}/position`, {
      seconds: 4.83,
      duration: 12,
    });
    expect(saved).toEqual({ saved: true, completed: false });
    // Signing in again is another device: the position is the member's, not the browser's.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'correct-horse' },
    });
    const elsewhere = login.json().token as string;
    expect((await lessonOf(elsewhere, course.lessons.video)).position).toBe(4.8);
    const home = await call<MemberHome>(elsewhere, 'GET', '/api/courses/home');
    expect(home.continue).toMatchObject({
      course: { slug: course.course.slug },
      lesson: { id: course.lessons.video, title: 'video' },
      position: 4.8,
    });
    expect(home.courses.find((c) => c.id === course.course.id)?.status).toBe('continue');
  });

  it('completes a video lesson by itself at 90 % watched', async () => {
    const { token } = await member(t, { tier: 'free' });
    const url = `/api/courses/lessons/${course.lessons.video}/position`;
    expect(await call(token, 'POST', url, { seconds: 10.7, duration: 12 })).toEqual({
      saved: true,
      completed: false,
    });
    expect(await call(token, 'POST', url, { seconds: 10.85, duration: 12 })).toEqual({
      saved: true,
      completed: true,
    });
    expect((await lessonOf(token, course.lessons.video)).completed).toBe(true);
  });

  it('"Complete and continue" goes to the next open lesson, skipping a section not open yet', async () => {
    const { token } = await member(t, { tier: 'free' });
    const first = await call<CompleteResult>(
      token,
      'POST',
      `/api/courses/lessons/${course.lessons.preview}/complete`,
    );
    expect(first.next).toEqual({ id: course.lessons.video, title: 'video' });
    expect(first.progress).toEqual({ completed: 1, total: 5, percent: 20 });
    const second = await call<CompleteResult>(
      token,
      'POST',
      `/api/courses/lessons/${course.lessons.video}/complete`,
    );
    // Week two opens 7 days after joining and "Coming" on a later date: both skipped.
    expect(second.next).toEqual({ id: course.lessons.datePast, title: 'datePast' });
    const outline = await call<CourseDetail>(token, 'GET', `/api/courses/${course.course.slug}`);
    expect(outline.next).toEqual({ id: course.lessons.datePast, title: 'datePast' });
    const week2 = outline.sections[1]!;
    expect(week2.lock?.reason).toBe('drip');
    expect(Date.parse(week2.lock!.opensAt!) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    expect(week2.lock!.message).toMatch(/^Opens on \d+ \w+ \d{4}\.$/);
    // A locked lesson cannot be completed or given a position.
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/courses/lessons/${course.lessons.dripDays}/complete`,
      headers: bearer(token),
    });
    expect(refused.statusCode).toBe(403);
  });

  it('opens a dripped section once its days have passed since joining', async () => {
    const { token } = await member(t, { tier: 'free', daysAgo: 8 });
    const outline = await call<CourseDetail>(token, 'GET', `/api/courses/${course.course.slug}`);
    expect(outline.sections.map((s) => s.lock?.reason ?? 'open')).toEqual(['open', 'open', 'drip', 'open']);
    const done = await call<CompleteResult>(
      token,
      'POST',
      `/api/courses/lessons/${course.lessons.video}/complete`,
    );
    expect(done.next).toEqual({ id: course.lessons.dripDays, title: 'dripDays' });
  });

  it('keeps started and completed counts of members as progress is written, not administrators', async () => {
    const before = await numbers();
    const { token } = await member(t, { tier: 'free', daysAgo: 30 });
    await call(token, 'POST', `/api/courses/lessons/${course.lessons.preview}/position`, { seconds: 0 });
    await call(token, 'POST', `/api/courses/lessons/${course.lessons.preview}/complete`);
    expect(await numbers()).toMatchObject({ started: before.started + 1, completed: before.completed });
    // An administrator trying the course is not counted.
    await call(admin, 'POST', `/api/courses/lessons/${course.lessons.preview}/complete`);
    expect((await numbers()).started).toBe(before.started + 1);
    // The last lesson still locked (a date to come): the course is not completed yet.
    for (const id of [course.lessons.video, course.lessons.dripDays, course.lessons.datePast])
      await call(token, 'POST', `/api/courses/lessons/${id}/complete`);
    expect((await numbers()).completed).toBe(before.completed);
    const outline = await call<CourseDetail>(token, 'GET', `/api/courses/${course.course.slug}`);
    expect(outline.progress).toEqual({ completed: 4, total: 5, percent: 80 });
    expect(outline.status).toBe('continue');
  });

  it('counts a course completed once, when its last lesson is completed', async () => {
    const before = await numbers();
    const { token } = await member(t, { tier: 'paid', daysAgo: 30 });
    // Open the dated section for this test by moving its date to the past.
    const sections = (
      await call<{ sections: Array<{ id: string }> }>(admin, 'GET', `/api/admin/courses/${course.course.id}`)
    ).sections;
    const opened = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/courses/${course.course.id}/sections/${sections[2]!.id}`,
      headers: bearer(admin),
      payload: { drip: { kind: 'date', date: '2020-01-01' } },
    });
    expect(opened.statusCode).toBe(200);
    let last: CompleteResult | undefined;
    for (const id of Object.values(course.lessons))
      last = await call<CompleteResult>(token, 'POST', `/api/courses/lessons/${id}/complete`);
    expect(last).toMatchObject({ courseCompleted: true, progress: { percent: 100 }, next: null });
    await call(token, 'POST', `/api/courses/lessons/${course.lessons.preview}/complete`);
    expect(await numbers()).toMatchObject({ started: before.started + 1, completed: before.completed + 1 });
    const row = await numbers();
    expect(row.completionRate).toBeCloseTo(row.completed / row.started);
    const home = await call<MemberHome>(token, 'GET', '/api/courses/home');
    expect(home.courses.find((c) => c.id === course.course.id)?.status).toBe('completed');
  });

  it('never loses a position or a completion to another write at the same moment', async () => {
    const { token } = await member(t, { tier: 'free', daysAgo: 30 });
    await Promise.all([
      call(token, 'POST', `/api/courses/lessons/${course.lessons.preview}/complete`),
      call(token, 'POST', `/api/courses/lessons/${course.lessons.video}/position`, {
        seconds: 3,
        duration: 12,
      }),
      call(token, 'POST', `/api/courses/lessons/${course.lessons.datePast}/complete`),
      call(token, 'POST', `/api/courses/lessons/${course.lessons.dripDays}/position`, {
        seconds: 7,
        duration: 100,
      }),
    ]);
    const outline = await call<CourseDetail>(token, 'GET', `/api/courses/${course.course.slug}`);
    expect(outline.progress?.completed).toBe(2);
    expect((await lessonOf(token, course.lessons.video)).position).toBe(3);
    expect((await lessonOf(token, course.lessons.dripDays)).position).toBe(7);
  });

  it('keeps no progress for visitors', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/courses/lessons/${course.lessons.preview}/position`,
      payload: { seconds: 3 },
    });
    expect(response.statusCode).toBe(401);
  });
});
