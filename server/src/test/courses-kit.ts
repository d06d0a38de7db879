import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CourseAccess, LessonFileSlot } from '@common/courses';
import type { AdminCourse, AdminLesson } from '@common/schemas/course-views';
import { hashPassword } from '../features/users/passwords';
import type { UserDoc } from '../features/users/users.repository';
import { bearer, type TestApp } from './test-app';

/** A real 12-second H.264/AAC video (made with ffmpeg), shared with the browser tests. */
export const LESSON_VIDEO = readFileSync(
  path.resolve(import.meta.dirname, '../../../e2e/fixtures/lesson.mp4'),
);
/** The smallest file a PDF reader (and file-type) takes for a PDF. */
export const LESSON_PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

const DAY_MS = 24 * 60 * 60 * 1000;

/** An administrator's calls to the API, failing loudly on an unexpected status. */
export function adminApi(t: TestApp, token: string) {
  return async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<T> => {
    const response = await t.app.inject({ method, url, payload: payload as object, headers: bearer(token) });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json().data as T;
  };
}

/** A multipart body of fields then one file, as the console's upload sends it. */
export function multipart(fields: Record<string, string>, file: { name: string; content: Buffer }) {
  const boundary = `----courses${Date.now()}`;
  const parts = [
    ...Object.entries(fields).map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    ),
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  ];
  return {
    payload: Buffer.concat([
      Buffer.from(parts.join('')),
      file.content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function uploadLessonFile(
  t: TestApp,
  token: string,
  courseId: string,
  lessonId: string,
  slot: LessonFileSlot,
  file: { name: string; content: Buffer },
) {
  const body = multipart({ slot }, file);
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/courses/${courseId}/lessons/${lessonId}/files`,
    payload: body.payload,
    headers: { ...bearer(token), ...body.headers },
  });
}

export interface BuiltCourse {
  course: AdminCourse;
  lessons: { preview: string; video: string; dripDays: string; dateFuture: string; datePast: string };
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

/**
 * A published course with one lesson of every kind access cares about: a free preview with a
 * download, a video lesson, a lesson 7 days after the start, one on a date to come and one on a
 * date gone by. Each lesson's text holds "SECRET <kind>", so a leak is easy to see.
 */
export async function buildCourse(
  t: TestApp,
  token: string,
  access: CourseAccess,
  title = `${access} course`,
): Promise<BuiltCourse> {
  const call = adminApi(t, token);
  let course = await call<AdminCourse>('POST', '/api/admin/courses', { title });
  const sectionIds: string[] = [];
  for (const [name, drip] of [
    ['Start here', { kind: 'none' }],
    ['Week two', { kind: 'days', days: 7 }],
    ['Coming', { kind: 'date', date: iso(new Date(Date.now() + 3 * DAY_MS)) }],
    ['Opened', { kind: 'date', date: iso(new Date(Date.now() - 3 * DAY_MS)) }],
  ] as const) {
    course = await call<AdminCourse>('POST', `/api/admin/courses/${course.id}/sections`, { title: name });
    const section = course.sections.at(-1)!;
    await call('PUT', `/api/admin/courses/${course.id}/sections/${section.id}`, { drip });
    sectionIds.push(section.id);
  }
  const lesson = async (sectionId: string, name: string, fields: Record<string, unknown>) => {
    const { lesson } = await call<{ lesson: AdminLesson }>(
      'POST',
      `/api/admin/courses/${course.id}/sections/${sectionId}/lessons`,
      { title: name },
    );
    await call('PUT', `/api/admin/courses/${course.id}/lessons/${lesson.id}`, {
      markdown: `# ${name}\n\nSECRET ${name}`,
      durationMinutes: 5,
      ...fields,
    });
    return lesson.id;
  };
  const lessons = {
    preview: await lesson(sectionIds[0]!, 'preview', { freePreview: true }),
    video: await lesson(sectionIds[0]!, 'video', {}),
    dripDays: await lesson(sectionIds[1]!, 'dripDays', {}),
    dateFuture: await lesson(sectionIds[2]!, 'dateFuture', {}),
    datePast: await lesson(sectionIds[3]!, 'datePast', {}),
  };
  for (const [id, kind, file] of [
    [lessons.preview, 'download', { name: 'workbook.pdf', content: LESSON_PDF }],
    [lessons.video, 'media', { name: 'welcome.mp4', content: LESSON_VIDEO }],
    [lessons.video, 'download', { name: 'notes.pdf', content: LESSON_PDF }],
    [lessons.dripDays, 'media', { name: 'week-two.mp4', content: LESSON_VIDEO }],
  ] as const) {
    const response = await uploadLessonFile(t, token, course.id, id, kind, file);
    if (response.statusCode !== 201) throw new Error(`upload: ${response.statusCode} ${response.body}`);
  }
  course = await call<AdminCourse>('PUT', `/api/admin/courses/${course.id}`, { access, published: true });
  return { course, lessons };
}

let people = 0;

/** A member (or administrator) who joined `daysAgo` days ago, signed in. */
export async function member(
  t: TestApp,
  fields: { tier?: 'free' | 'paid'; role?: 'user' | 'admin'; daysAgo?: number } = {},
): Promise<{ user: UserDoc; token: string }> {
  people += 1;
  const joined = new Date(Date.now() - (fields.daysAgo ?? 0) * DAY_MS);
  const email = `learner${people}-${Date.now()}@example.com`;
  await t.store.collection<UserDoc>('users').insertMany([
    {
      name: `Learner ${people}`,
      email,
      password: await hashPassword('correct-horse'),
      role: fields.role ?? 'user',
      membershipTier: fields.tier ?? 'free',
      status: 'active',
      createdAt: joined,
      updatedAt: joined,
    },
  ]);
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: 'correct-horse' },
  });
  const user = (await t.store.collection<UserDoc>('users').findOne({ email }))!;
  return { user, token: login.json().token as string };
}
