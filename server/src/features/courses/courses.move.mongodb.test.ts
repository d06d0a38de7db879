import type { CourseDetail, LessonView } from '@common/schemas/course-views';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../settings/config';
import { openStore } from '../../store/open-store';
import { buildCourse, member } from '../../test/courses-kit';
import { ferretDbForFile } from '../../test/ferretdb';
import { bearer, confirmed, createTestApp } from '../../test/test-app';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const COURSE_COLLECTIONS = [
  'courses',
  'course_sections',
  'course_lessons',
  'course_lesson_bodies',
  'course_files',
  'course_progress',
  'course_counts',
  'course_settings',
];

const ferret = ferretDbForFile();

describe.skipIf(!ferret)('moving the site to MongoDB (FerretDB) carries the courses', () => {
  it('copies courses, lessons, files, progress and counts; the next start serves them with the same links and positions', async () => {
    const mongo = ferret!.server();
    const before = await createTestApp({}, { requestRestart: async () => ({ started: true, port: 0 }) });
    cleanups.push(() => before.close());
    const admin = await member(before, { role: 'admin' });
    const { course, lessons } = await buildCourse(before, admin.token, 'paid');
    await before.app.inject({
      method: 'PUT',
      url: '/api/admin/courses/settings',
      headers: bearer(admin.token),
      payload: { upgradeText: 'Go paid', upgradeLinkLabel: 'Upgrade', upgradeLinkUrl: '/join' },
    });
    const paid = await member(before, { tier: 'paid', daysAgo: 30 });
    await before.app.inject({
      method: 'POST',
      url: `/api/courses/lessons/${lessons.video}/position`,
      headers: bearer(paid.token),
      payload: { seconds: 7.5, duration: 12 },
    });
    await before.app.inject({
      method: 'POST',
      url: `/api/courses/lessons/${lessons.preview}/complete`,
      headers: bearer(paid.token),
    });

    const saved = await before.app.inject({
      method: 'POST',
      url: '/api/admin/mongodb/config',
      headers: await confirmed(before, admin.token),
      payload: { host: '127.0.0.1', port: mongo.port, database: 'site', poolSize: 5 },
    });
    expect(saved.statusCode).toBe(200);
    for (const name of COURSE_COLLECTIONS) expect(saved.json().copied[name], name).toBeGreaterThan(0);

    // The next start, on MongoDB, with the same DATA_DIR (the lessons folder, the token secret).
    const config = loadConfig({ DATA_DIR: before.dataDir, LOG_LEVEL: 'silent' });
    const store = await openStore(config);
    expect(store.kind).toBe('mongodb');
    const after = await buildApp({ config, store });
    cleanups.push(async () => {
      await after.close();
      await store.close();
    });
    const outline = (
      await after.inject({ url: `/api/courses/${course.slug}`, headers: bearer(paid.token) })
    ).json().data as CourseDetail;
    expect(outline.progress).toMatchObject({ completed: 1, total: 5 });
    const answer = await after.inject({
      url: `/api/courses/${course.slug}/lessons/${lessons.video}`,
      headers: bearer(paid.token),
    });
    const lesson = answer.json().data as LessonView;
    expect(lesson.position).toBe(7.5);
    // The member's browser sends the cookie the lesson answer set with every range.
    const cookie = String(answer.headers['set-cookie']).split(';')[0]!;
    const range = await after.inject({ url: lesson.media!.url, headers: { range: 'bytes=0-99', cookie } });
    expect(range.statusCode).toBe(206);
    const rows = (await after.inject({ url: '/api/admin/courses', headers: bearer(admin.token) })).json()
      .data;
    expect(rows.find((row: { id: string }) => row.id === course.id)).toMatchObject({
      started: 1,
      completed: 0,
    });
  });
});
