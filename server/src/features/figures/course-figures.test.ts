import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCourse, buildCourse, member } from '../../test/courses-kit';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';
import { CoursesRepository } from '../courses/courses.repository';
import { ProgressRepository } from '../courses/progress/progress.repository';
import { UsersRepository } from '../users/users.repository';
import { backfillCourses } from './course-roll-ups';
import { FigureDaysRepository } from './figure-days.repository';

/*
 * A members' course (kit: preview, video, a lesson 7 days after joining, one on a date to come, one
 * on a date gone by) and by hand: M1 joined 10 days ago, completed the preview, played the video
 * and completed the 7-day lesson; M2 joined today, completed the preview and the video. The
 * administrator's own progress is never counted. So: 2 enrolled, 2 started; the 7-day lesson is
 * open to M1 alone (M2's drip has not opened it: no drop-off), the lesson to come to nobody.
 */
let t: TestApp;
let token: string;
let built: BuiltCourse;
beforeAll(async () => {
  t = await createTestApp();
  token = (await createUser(t, { role: 'admin' })).token;
  built = await buildCourse(t, token, 'members', 'Calm mornings');
  const m1 = await member(t, { daysAgo: 10 });
  const m2 = await member(t);
  const complete = (who: string, lesson: string) =>
    t.app.inject({ method: 'POST', url: `/api/courses/lessons/${lesson}/complete`, headers: bearer(who) });
  const play = (who: string, lesson: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/courses/lessons/${lesson}/position`,
      headers: bearer(who),
      payload: { seconds: 30 },
    });
  for (const [who, action, lesson] of [
    [m1.token, complete, built.lessons.preview],
    [m1.token, play, built.lessons.video],
    [m1.token, complete, built.lessons.dripDays],
    [m2.token, complete, built.lessons.preview],
    [m2.token, complete, built.lessons.video],
    [token, complete, built.lessons.preview],
  ] as const) {
    const response = await action(who, lesson);
    if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  }
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

describe('course figures', () => {
  it('lists each course with its members enrolled, started and completed', async () => {
    const response = await get('/api/admin/figures/courses');
    expect(response.json().data).toEqual([
      {
        courseId: built.course.id,
        title: 'Calm mornings',
        access: 'members',
        enrolled: 2,
        started: 2,
        completed: 0,
      },
    ]);
  });

  it('gives the drop-off lesson by lesson, leaving out lessons the drip has not opened', async () => {
    const { lessons } = (await get(`/api/admin/figures/courses/${built.course.id}`)).json().data;
    expect(
      lessons.map(({ title, kind, open, reached, played, watchedThrough }: Record<string, unknown>) => [
        title,
        kind,
        open,
        reached,
        played,
        watchedThrough,
      ]),
    ).toEqual([
      ['preview', 'text', 2, 2, null, null],
      ['video', 'video', 2, 2, 2, 1],
      ['dripDays', 'video', 1, 1, 1, 1],
      ['dateFuture', 'text', 0, 0, null, null],
      ['datePast', 'text', 2, 0, null, null],
    ]);
  });

  it('counts progress written after the figures were first asked, at once', async () => {
    const lessonsNow = async () =>
      (await get(`/api/admin/figures/courses/${built.course.id}`))
        .json()
        .data.lessons.map(({ open, reached }: Record<string, number>) => [open, reached]);
    expect(await lessonsNow()).toEqual([
      [2, 2],
      [2, 2],
      [1, 1],
      [0, 0],
      [2, 0],
    ]);
    const m3 = await member(t, { daysAgo: 3 });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/courses/lessons/${built.lessons.datePast}/complete`,
      headers: bearer(m3.token),
    });
    expect(response.statusCode).toBe(200);
    // M3 started 3 days ago: the 7-day lesson is not open to them yet, the past-date one is reached.
    expect(await lessonsNow()).toEqual([
      [3, 2],
      [3, 2],
      [1, 1],
      [0, 0],
      [3, 1],
    ]);
  });

  it('takes a deleted member off each lesson, as if they had never started', async () => {
    const asked = async () => (await get(`/api/admin/figures/courses/${built.course.id}`)).json().data;
    const before = await asked();
    const m4 = await member(t, { daysAgo: 8 });
    for (const lesson of [built.lessons.preview, built.lessons.dripDays, built.lessons.datePast]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/courses/lessons/${lesson}/complete`,
        headers: bearer(m4.token),
      });
      expect(response.statusCode).toBe(200);
    }
    expect(await asked()).not.toEqual(before);
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: bearer(m4.token),
      payload: { password: 'correct-horse', confirmation: 'DELETE' },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await asked()).toEqual(before);
  });

  it('fills the same figures from the progress already there at first start', async () => {
    const asked = async () => (await get(`/api/admin/figures/courses/${built.course.id}`)).json().data;
    const kept = await asked();
    const rollUps = new FigureDaysRepository(t.store, 'course_figures');
    const stored = t.store.collection('course_figures');
    for (const doc of await stored.find({})) await stored.deleteById(doc._id);
    const progress = new ProgressRepository(t.store);
    const courses = new CoursesRepository(t.store);
    const users = new UsersRepository(t.store);
    expect(await backfillCourses(rollUps, { progress, courses, users })).toBe(true);
    expect(await backfillCourses(rollUps, { progress, courses, users })).toBe(false);
    expect(await asked()).toEqual(kept);
  });

  it('hands out the course’s members with their progress as CSV', async () => {
    const response = await get(`/api/admin/figures/courses/${built.course.id}/members.csv`);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toContain('"Lessons completed"');
    expect(lines).toHaveLength(4);
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[5])
        .sort(),
    ).toEqual(['"1"', '"2"', '"2"']);
  });

  it('refuses an unknown course', async () => {
    for (const url of [
      '/api/admin/figures/courses/ffffffffffffffffffffffff',
      '/api/admin/figures/courses/nonsense/members.csv',
      '/api/admin/figures/courses/ffffffffffffffffffffffff/members.csv',
    ]) {
      const response = await get(url);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('No such course.');
    }
  });
});
