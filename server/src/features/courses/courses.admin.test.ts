import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { LessonFileSlot } from '@common/courses';
import type { AdminCourse, AdminLesson } from '@common/schemas/course-views';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminApi,
  buildCourse,
  LESSON_PDF,
  LESSON_VIDEO,
  member,
  uploadLessonFile,
} from '../../test/courses-kit';
import { bearer, confirmed, createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: string;
let call: ReturnType<typeof adminApi>;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await member(t, { role: 'admin' })).token;
  call = adminApi(t, admin);
});
afterAll(() => t.close());

const activityKinds = async () =>
  (
    (await t.app.inject({ url: '/api/admin/activity?pageSize=100', headers: bearer(admin) })).json()
      .data as Array<{
      kind: string;
      summary: string;
    }>
  ).map((entry) => `${entry.kind}: ${entry.summary}`);

describe('the owner builds a course', () => {
  it('makes the address from the title, unique, editable, never one the site keeps', async () => {
    const first = await call<AdminCourse>('POST', '/api/admin/courses', {
      title: 'Morning Practice — Week 1!',
    });
    expect(first.slug).toBe('morning-practice-week-1');
    expect(first).toMatchObject({ published: false, access: 'members', sections: [] });
    const second = await call<AdminCourse>('POST', '/api/admin/courses', {
      title: 'Morning practice: week 1',
    });
    expect(second.slug).toBe('morning-practice-week-1-2');
    const taken = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/courses/${second.id}`,
      headers: bearer(admin),
      payload: { slug: 'morning-practice-week-1' },
    });
    expect(taken.statusCode).toBe(409);
    const reserved = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/courses/${second.id}`,
      headers: bearer(admin),
      payload: { slug: 'home' },
    });
    expect(reserved.statusCode).toBe(400);
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/courses/${second.id}`,
      headers: bearer(admin),
      payload: { slug: 'Not A Slug/..' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      (await call<AdminCourse>('PUT', `/api/admin/courses/${second.id}`, { slug: 'evenings' })).slug,
    ).toBe('evenings');
  });

  it('orders sections and lessons, moving a lesson to another section, and refuses an order that misses one', async () => {
    const { course } = await buildCourse(t, admin, 'public', 'Order test');
    const [a, b] = course.sections;
    const order = {
      sections: [
        { id: b!.id, lessonIds: [...b!.lessons.map((l) => l.id), a!.lessons[1]!.id] },
        { id: a!.id, lessonIds: [a!.lessons[0]!.id] },
        ...course.sections.slice(2).map((s) => ({ id: s.id, lessonIds: s.lessons.map((l) => l.id) })),
      ],
    };
    const reordered = await call<AdminCourse>('PUT', `/api/admin/courses/${course.id}/order`, order);
    expect(reordered.sections.map((s) => s.title)).toEqual(['Week two', 'Start here', 'Coming', 'Opened']);
    expect(reordered.sections[0]!.lessons.map((l) => l.title)).toEqual(['dripDays', 'video']);
    const outline = (await t.app.inject({ url: `/api/courses/${course.slug}` })).json().data;
    expect(outline.sections[0].lessons.map((l: { title: string }) => l.title)).toEqual(['dripDays', 'video']);
    const missing = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/courses/${course.id}/order`,
      headers: bearer(admin),
      payload: { sections: order.sections.slice(1) },
    });
    expect(missing.statusCode).toBe(409);
  });

  it('checks lesson files by content, keeps them out of every public folder, and removes them with the lesson', async () => {
    const course = await call<AdminCourse>('POST', '/api/admin/courses', { title: 'Files' });
    const withSection = await call<AdminCourse>('POST', `/api/admin/courses/${course.id}/sections`, {
      title: 'One',
    });
    const { lesson } = await call<{ lesson: AdminLesson }>(
      'POST',
      `/api/admin/courses/${course.id}/sections/${withSection.sections[0]!.id}/lessons`,
      { title: 'Lesson' },
    );
    const folder = path.join(t.dataDir, 'lessons');
    const earlier = new Set(await readdir(folder).catch(() => []));
    const ours = async () => (await readdir(folder)).filter((name) => !earlier.has(name));
    const upload = (slot: LessonFileSlot, name: string, content: Buffer) =>
      uploadLessonFile(t, admin, course.id, lesson.id, slot, { name, content });
    expect((await upload('media', 'talk.mp4', LESSON_PDF)).statusCode).toBe(415);
    expect((await upload('download', 'sheet.pdf', LESSON_VIDEO)).statusCode).toBe(415);
    expect((await upload('download', 'tool.exe', Buffer.from('MZ\x90\x00'))).statusCode).toBe(415);
    expect((await upload('media', 'talk.pdf', LESSON_PDF)).statusCode).toBe(415);
    const video = await upload('media', 'Talk (final).mp4', LESSON_VIDEO);
    expect(video.statusCode).toBe(201);
    expect((video.json().data as AdminLesson).media).toMatchObject({
      name: 'Talk (final).mp4',
      kind: 'video',
      size: LESSON_VIDEO.length,
    });
    expect(
      (await upload('download', 'notes.txt', Buffer.from('Breathe in, breathe out.\n'))).statusCode,
    ).toBe(201);
    const stored = await ours();
    expect(stored).toHaveLength(2);
    expect(stored.every((name) => /^[0-9a-f]{32}\.(mp4|txt)$/.test(name))).toBe(true);
    // Not under the media library, not under /media.
    for (const name of stored)
      expect((await t.app.inject({ url: `/media/video/${name}` })).statusCode).toBe(404);
    // A new video replaces the old one, whose file goes.
    await upload('media', 'talk-2.mp4', LESSON_VIDEO);
    expect(await ours()).toHaveLength(2);
    await call('DELETE', `/api/admin/courses/${course.id}/lessons/${lesson.id}`);
    expect(await ours()).toEqual([]);
  });

  it('renders the live preview with the rules lessons are saved with', async () => {
    const { html } = await call<{ html: string }>('POST', '/api/admin/courses/markdown-preview', {
      markdown: '**Hi** <img src=x onerror=alert(1)> [x](javascript:alert(1))',
    });
    expect(html).toBe('<p><strong>Hi</strong>  <a>x</a></p>');
  });

  it('keeps the upgrade offer the dashboard shows free members', async () => {
    const saved = await call('PUT', '/api/admin/courses/settings', {
      upgradeText: 'Unlock every course with the Architect tier.',
      upgradeLinkLabel: 'See the tier',
      upgradeLinkUrl: '/join',
    });
    expect(saved).toMatchObject({ upgradeLinkUrl: '/join' });
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/courses/settings',
      headers: bearer(admin),
      payload: { upgradeText: 'x', upgradeLinkLabel: 'x', upgradeLinkUrl: 'javascript:alert(1)' },
    });
    expect(bad.statusCode).toBe(400);
    // Addresses a browser reads as another site are no "path on this site".
    for (const upgradeLinkUrl of ['//evil.example/x', '/\\evil.example', 'https:///evil.example']) {
      const elsewhere = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/courses/settings',
        headers: bearer(admin),
        payload: { upgradeText: 'x', upgradeLinkLabel: 'x', upgradeLinkUrl },
      });
      expect(elsewhere.statusCode).toBe(400);
      expect(elsewhere.json()).toMatchObject({
        code: 'VALIDATION',
        message: expect.stringMatching(/path on this site/),
      });
    }
    const free = await member(t, { tier: 'free' });
    const home = (await t.app.inject({ url: '/api/courses/home', headers: bearer(free.token) })).json().data;
    expect(home.offer).toEqual({
      upgradeText: 'Unlock every course with the Architect tier.',
      upgradeLinkLabel: 'See the tier',
      upgradeLinkUrl: '/join',
    });
    // A paid course's page and lessons carry it too, for those it is locked for.
    const course = await call<{ id: string; slug: string }>('POST', '/api/admin/courses', {
      title: 'Paid only',
    });
    await call('PUT', `/api/admin/courses/${course.id}`, { access: 'paid', published: true });
    const page = (
      await t.app.inject({ url: `/api/courses/${course.slug}`, headers: bearer(free.token) })
    ).json().data;
    expect(page.offer).toEqual(home.offer);
    const paid = await member(t, { tier: 'paid' });
    expect(
      (await t.app.inject({ url: `/api/courses/${course.slug}`, headers: bearer(paid.token) })).json().data
        .offer,
    ).toBeNull();
    expect(
      (await t.app.inject({ url: '/api/courses/home', headers: bearer(paid.token) })).json().data.offer,
    ).toBeNull();
  });

  it('records every change in the Activity log, and is for administrators only', async () => {
    const kinds = await activityKinds();
    for (const kind of [
      'course.created',
      'course.updated',
      'course.outline',
      'course.lesson',
      'course.file',
      'course.settings',
    ])
      expect(
        kinds.some((entry) => entry.startsWith(kind)),
        kind,
      ).toBe(true);
    const course = await call<AdminCourse>('POST', '/api/admin/courses', { title: 'Short-lived' });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/courses/${course.id}`,
      headers: await confirmed(t, admin),
    });
    expect(deleted.statusCode).toBe(200);
    expect(await activityKinds()).toContain('course.deleted: Deleted the course “Short-lived”');
    const someone = await member(t, { tier: 'paid' });
    for (const [method, url] of [
      ['GET', '/api/admin/courses'],
      ['POST', '/api/admin/courses'],
      ['PUT', `/api/admin/courses/${course.id}`],
      ['POST', '/api/admin/courses/markdown-preview'],
    ] as const) {
      expect(
        (await t.app.inject({ method, url, headers: bearer(someone.token), payload: {} })).statusCode,
      ).toBe(403);
      expect((await t.app.inject({ method, url, payload: {} })).statusCode).toBe(401);
    }
  });
});

describe('deleting a course', () => {
  it("asks for the administrator's password again: unconfirmed, the course and its members' progress stay", async () => {
    const built = await buildCourse(t, admin, 'members', 'Kept unless confirmed');
    const learner = await member(t, { tier: 'free' });
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/courses/lessons/${built.lessons.preview}/complete`,
      headers: bearer(learner.token),
    });
    expect(saved.statusCode).toBe(200);
    const lessonView = () =>
      t.app.inject({
        url: `/api/courses/${built.course.slug}/lessons/${built.lessons.preview}`,
        headers: bearer(learner.token),
      });

    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/courses/${built.course.id}`,
      headers: bearer(admin),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'REAUTH_REQUIRED' });
    expect((await lessonView()).json().data).toMatchObject({ completed: true });

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reauth',
      headers: bearer(admin),
      payload: { password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(400);
    expect((await lessonView()).json().data).toMatchObject({ completed: true });

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/courses/${built.course.id}`,
      headers: await confirmed(t, admin),
    });
    expect(deleted.statusCode).toBe(200);
    expect((await lessonView()).statusCode).toBe(404);
  }, 60_000);
});
