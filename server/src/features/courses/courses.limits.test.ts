import type { LessonView } from '@common/schemas/course-views';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCourse, buildCourse, member } from '../../test/courses-kit';
import { bearer, createTestApp, saveAppServerSettings, type TestApp } from '../../test/test-app';
import { POSITION_SAVES_MAX } from './progress/position-save-limit';

let t: TestApp;
let admin: string;
let course: BuiltCourse;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await member(t, { role: 'admin' })).token;
  course = await buildCourse(t, admin, 'members');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const save = (token: string, seconds: number, extra: Record<string, unknown> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/courses/lessons/${course.lessons.preview}/position`,
    headers: bearer(token),
    payload: { seconds, duration: 100, ...extra },
  });
const positionOf = async (token: string) =>
  (
    await t.app.inject({
      url: `/api/courses/${course.course.slug}/lessons/${course.lessons.preview}`,
      headers: bearer(token),
    })
  ).json().data as LessonView;

describe("a lesson's position saves", () => {
  it('are refused past a playing video’s pace, per member, and the refused ones write nothing', async () => {
    const { token } = await member(t, { tier: 'free' });
    const other = (await member(t, { tier: 'free' })).token;
    for (let i = 1; i <= POSITION_SAVES_MAX; i++) expect((await save(token, i)).statusCode).toBe(200);
    const refused = await save(token, 99);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/Too many/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await positionOf(token)).position).toBe(POSITION_SAVES_MAX);
    // Another member's saves have a budget of their own.
    expect((await save(other, 5)).statusCode).toBe(200);
  });

  it('take a body of a few numbers: a large one gets 413 and writes nothing', async () => {
    const { token } = await member(t, { tier: 'free' });
    expect((await save(token, 7)).statusCode).toBe(200);
    const large = await save(token, 8, { padding: 'x'.repeat(64 * 1024) });
    expect(large.statusCode).toBe(413);
    expect(large.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((await positionOf(token)).position).toBe(7);
  });

  it('lend their exemption from the general limit to no other call (…/complete?x=/position)', async () => {
    const { token } = await member(t, { tier: 'free' });
    await saveAppServerSettings(t, admin, { rateLimitMax: 3 });
    const complete = (suffix: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/courses/lessons/${course.lessons.video}/complete${suffix}`,
        headers: bearer(token),
      });
    for (let i = 0; i < 3; i++) expect((await complete('')).statusCode).toBe(200);
    expect((await complete('')).statusCode).toBe(429);
    expect((await complete('?x=/position')).statusCode).toBe(429);
    // The position saves themselves still pass.
    expect((await save(token, 3)).statusCode).toBe(200);
  });
});
