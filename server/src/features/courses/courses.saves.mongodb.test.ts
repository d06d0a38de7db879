import type { AdminCourseRow, LessonView, PositionResult } from '@common/schemas/course-views';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../store/open-store';
import { type BuiltCourse, buildCourse, member } from '../../test/courses-kit';
import { ferretDbForFile } from '../../test/ferretdb';
import { bearer, createTestApp, type TestApp } from '../../test/test-app';
import { ProgressRepository } from './progress/progress.repository';

const ferret = ferretDbForFile();
const STORES: Array<[string, Parameters<typeof createTestApp>[1]]> = [['embedded store', {}]];
if (ferret) {
  STORES.push([
    'MongoDB (FerretDB)',
    { openStore: (dataDir) => openStore({ dataDir, mongodbUri: ferret.freshUri('courses-saves') }) },
  ]);
}

/**
 * A playing lesson's position saves are one write each, with no read first (see
 * ProgressRepository.setPosition); these say what that must not cost: no position, completion or
 * count lost to another save or completion arriving at the same moment.
 */
describe.each(STORES)('position saves arriving together, on the %s', (_store, options) => {
  let t: TestApp;
  let admin: string;
  let course: BuiltCourse;

  beforeAll(async () => {
    t = await createTestApp({}, options);
    admin = (await member(t, { role: 'admin' })).token;
    course = await buildCourse(t, admin, 'members');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const call = async <T>(token: string, method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const response = await t.app.inject({ method, url, headers: bearer(token), payload: payload as object });
    if (response.statusCode !== 200)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json().data as T;
  };
  const save = (token: string, lessonId: string, seconds: number, duration = 100) =>
    call<PositionResult>(token, 'POST', `/api/courses/lessons/${lessonId}/position`, { seconds, duration });
  const lessonOf = (token: string, id: string) =>
    call<LessonView>(token, 'GET', `/api/courses/${course.course.slug}/lessons/${id}`);
  const numbers = async () =>
    (await call<AdminCourseRow[]>(admin, 'GET', '/api/admin/courses')).find(
      (row) => row.id === course.course.id,
    )!;

  it('keeps both positions and the completion when one lesson reaches 90 % as another is saved', async () => {
    const { token } = await member(t, { tier: 'free', daysAgo: 30 });
    await save(token, course.lessons.preview, 1);
    for (let round = 0; round < 5; round++) {
      const [video, other] = await Promise.all([
        save(token, course.lessons.video, 11 + round / 10, 12),
        save(token, course.lessons.dripDays, 20 + round),
      ]);
      expect(video).toEqual({ saved: true, completed: true });
      expect(other).toEqual({ saved: true, completed: false });
    }
    expect(await lessonOf(token, course.lessons.video)).toMatchObject({ position: 11.4, completed: true });
    expect(await lessonOf(token, course.lessons.dripDays)).toMatchObject({ position: 24, completed: false });
    expect((await lessonOf(token, course.lessons.preview)).position).toBe(1);
  });

  it('keeps a position written while a completion is worked out from an earlier read', async () => {
    // Over HTTP the two rarely meet in that order; here the position is written between the
    // completion's read and its compare-and-set, which the position write does not disturb.
    const progress = new ProgressRepository(t.store);
    const { user } = await member(t, { tier: 'free' });
    const [a, b] = [course.lessons.preview, course.lessons.video];
    await progress.write(user._id, course.course.id, () => ({ position: { lessonId: a, seconds: 1 } }));
    let between: Promise<unknown> | undefined;
    await progress.write(user._id, course.course.id, () => {
      between ??= progress.setPosition(user._id, course.course.id, { lessonId: b, seconds: 2 }, new Date());
      return { completed: [a], position: { lessonId: a, seconds: 3 } };
    });
    await between;
    expect(await progress.find(user._id, course.course.id)).toMatchObject({
      completed: [a],
      positions: { [a]: 3, [b]: 2 },
    });
  });

  it('counts a member as started once when their first saves in a course arrive together', async () => {
    const before = await numbers();
    const { token } = await member(t, { tier: 'free', daysAgo: 30 });
    const lessons = [course.lessons.preview, course.lessons.video, course.lessons.dripDays];
    await Promise.all(lessons.map((id, i) => save(token, id, 10 + i)));
    expect(await numbers()).toMatchObject({ started: before.started + 1, completed: before.completed });
    for (const [i, id] of lessons.entries()) expect((await lessonOf(token, id)).position).toBe(10 + i);
  });

  it('answers that a completed lesson is completed when its position is saved again', async () => {
    const { token } = await member(t, { tier: 'free', daysAgo: 30 });
    await call(token, 'POST', `/api/courses/lessons/${course.lessons.video}/complete`);
    expect(await save(token, course.lessons.video, 2, 12)).toEqual({ saved: true, completed: true });
    expect(await save(token, course.lessons.preview, 3)).toEqual({ saved: true, completed: false });
    expect(await lessonOf(token, course.lessons.video)).toMatchObject({ position: 2, completed: true });
  });
});
