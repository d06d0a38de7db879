import type { CourseDetail, LessonView } from '@common/schemas/course-views';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCourse, buildCourse, member } from '../../test/courses-kit';
import { bearer, createTestApp, type TestApp } from '../../test/test-app';
import type { UserDoc } from '../users/users.repository';

const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
let paidCourse: BuiltCourse;
let membersCourse: BuiltCourse;

beforeAll(async () => {
  t = await createTestApp();
  const admin = (await member(t, { role: 'admin' })).token;
  paidCourse = await buildCourse(t, admin, 'paid', 'Paid drip');
  membersCourse = await buildCourse(t, admin, 'members', 'Members drip');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** A paid member who joined `joinedDaysAgo` days ago and paid `paidDaysAgo` days ago. */
async function paidMember(joinedDaysAgo: number, paidDaysAgo: number): Promise<string> {
  const { user, token } = await member(t, { tier: 'paid', daysAgo: joinedDaysAgo });
  await t.store
    .collection<UserDoc>('users')
    .updateOne({ _id: user._id }, { paidSince: new Date(Date.now() - paidDaysAgo * DAY_MS) });
  return token;
}

/** Why the course's 7-days section lesson is locked for `token`, or 'open'. */
async function dripLesson(course: BuiltCourse, token: string): Promise<string> {
  const id = course.lessons.dripDays;
  const outline = (
    await t.app.inject({ url: `/api/courses/${course.course.slug}`, headers: bearer(token) })
  ).json().data as CourseDetail;
  const entry = outline.sections.flatMap((s) => s.lessons).find((l) => l.id === id)!;
  const view = (
    await t.app.inject({ url: `/api/courses/${course.course.slug}/lessons/${id}`, headers: bearer(token) })
  ).json().data as LessonView;
  expect(view.lock?.reason ?? 'open').toBe(entry.lock?.reason ?? 'open');
  if (view.lock) expect(view.html).toBe('');
  return view.lock?.reason ?? 'open';
}

describe("a paid course's drip", () => {
  it('counts from the day the member paid, not the day they joined', async () => {
    // Joined 30 days ago, paid 3 days ago: the paid course's 7-days section is 4 days away.
    const recent = await paidMember(30, 3);
    expect(await dripLesson(paidCourse, recent)).toBe('drip');
    // The same member's members-only course counts from joining: open.
    expect(await dripLesson(membersCourse, recent)).toBe('open');
    // Paid 10 days ago: open.
    expect(await dripLesson(paidCourse, await paidMember(30, 10))).toBe('open');
  });
});
