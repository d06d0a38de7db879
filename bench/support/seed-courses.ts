import { randomBytes } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { demoCourseRows } from '../../scripts/demo/courses';
import { demoUsers } from '../../scripts/demo/users';
import { CoursesRepository } from '../../server/src/features/courses/courses.repository';
import { LessonFilesRepository } from '../../server/src/features/courses/lesson-files/lesson-files.repository';
import {
  type CourseCountsDoc,
  type ProgressDoc,
  ProgressRepository,
  progressId,
} from '../../server/src/features/courses/progress/progress.repository';
import { SessionsRepository } from '../../server/src/features/sessions/sessions.repository';
import { loadTokenKey, TokenService } from '../../server/src/features/sessions/token-service';
import { hashPassword } from '../../server/src/features/users/passwords';
import { UsersRepository } from '../../server/src/features/users/users.repository';
import { newId } from '../../server/src/store/new-id';
import { openEmbeddedStore } from '../../server/src/store/sqlite/store';
import type { Store } from '../../server/src/store/store';

const BATCH = 5000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface SeededSite {
  /** Published courses: slug, access and lesson ids in reading order. */
  courses: Array<{ id: string; slug: string; access: string; lessonIds: string[] }>;
  /** Signed-in members: a token each (sessions made in the store, tokens signed with JWT_SECRET). */
  members: Array<{ id: string; tier: 'free' | 'paid'; token: string; courseIds: string[] }>;
  /** The lesson whose video 50 viewers watch (a public course's first lesson), and its size. */
  video: { slug: string; lessonId: string; bytes: number };
}

export type SeededCourse = SeededSite['courses'][number];

/** Published courses of 5 sections × 10 lessons (with their bodies), written straight into `store`. */
export async function seedCatalogue(store: Store, count: number): Promise<SeededCourse[]> {
  const repository = new CoursesRepository(store);
  const rows = demoCourseRows(count, 5, 10);
  await repository.courses.insertMany(rows.courses);
  await repository.sections.insertMany(rows.sections);
  for (let i = 0; i < rows.lessons.length; i += BATCH)
    await repository.lessons.insertMany(rows.lessons.slice(i, i + BATCH));
  const html = '<h2>Lesson</h2><p>Ten quiet minutes.</p>';
  const bodies = rows.lessons.map((lesson) => ({
    _id: lesson._id!,
    markdown: '## Lesson\n\nTen quiet minutes.',
    html,
  }));
  for (let i = 0; i < bodies.length; i += BATCH)
    await store.collection('course_lesson_bodies').insertMany(bodies.slice(i, i + BATCH));
  const courses = rows.courses.map((course) => ({
    id: course._id!,
    slug: course.slug,
    access: course.access,
    lessonIds: rows.lessons.filter((l) => l.courseId === course._id).map((l) => l._id!),
  }));
  return courses;
}

/** The course of a member's `k`th progress row (spread so that every course has takers). */
export const courseIndexOf = (n: number, k: number, courses: number) => (n * 7 + k * 13) % courses;

/**
 * Member number `n`'s `k`th progress row, in `courses[courseIndexOf(n, k)]`: the first
 * (n + k) % 9 lessons completed (every lesson for one in 23), a position kept in the next, last
 * opened (n * 31 + k) % 60 days before `nowMs`. bench/support/seed-figures.ts writes the same in SQL.
 */
export function progressRow(
  n: number,
  k: number,
  userId: string,
  courses: SeededCourse[],
  nowMs: number,
): ProgressDoc {
  const course = courses[courseIndexOf(n, k, courses.length)]!;
  const completedCount = (n + k) % 9;
  const finished = (n + k) % 23 === 0;
  const completed = course.lessonIds.slice(0, finished ? course.lessonIds.length : completedCount);
  const last = course.lessonIds[Math.min(completedCount, course.lessonIds.length - 1)]!;
  const at = new Date(nowMs - ((n * 31 + k) % 60) * DAY_MS);
  return {
    _id: progressId(userId, course.id),
    userId,
    courseId: course.id,
    completed,
    positions: { [last]: ((n + k) % 500) + 0.5 },
    lastLessonId: last,
    lastAt: at,
    completedAt: finished ? at : null,
    rev: 1,
    createdAt: at,
    updatedAt: at,
  };
}

export interface SeedOptions {
  dataDir: string;
  jwtSecret: string;
  members: number;
  progressPerMember: number;
  courses: number;
  signedIn: number;
  videoMb: number;
  log: (line: string) => void;
  /** Told of each batch of progress rows written, with their members (the figures' roll-ups). */
  onProgress?: (rows: ProgressDoc[], members: Map<string, { createdAt: Date; paidSince?: Date }>) => void;
}

/**
 * Seeds straight into the embedded store under `dataDir`, before the product starts: members
 * (demo users with known ids), courses of 5 sections × 10 lessons, each member's progress in
 * `progressPerMember` courses (some lessons completed, a position kept) with the courses' kept
 * counts, sessions for `signedIn` of them, and a `videoMb` MB lesson video in the lessons folder.
 */
export async function seedCourseSite(options: SeedOptions): Promise<SeededSite> {
  const store = await openEmbeddedStore(options.dataDir, () => undefined);
  try {
    const users = new UsersRepository(store);
    const repository = new CoursesRepository(store);
    const progress = new ProgressRepository(store);
    const files = new LessonFilesRepository(store);
    const sessions = new SessionsRepository(store);
    // Progress's indexes are made once its rows are in (one build instead of ten million updates).
    await Promise.all([users.init(), repository.init(), files.init(), sessions.init()]);

    const courses = await seedCatalogue(store, options.courses);
    options.log(`${courses.length} courses of 5 sections × 10 lessons`);

    const hash = await hashPassword('demo-password');
    const started = performance.now();
    const counts = new Map<string, { started: number; completed: number }>();
    const sample: Array<{ id: string; tier: 'free' | 'paid'; courseIds: string[] }> = [];
    const every = Math.max(1, Math.floor(options.members / options.signedIn));
    for (let done = 0; done < options.members; done += BATCH) {
      const batch = demoUsers(done, Math.min(BATCH, options.members - done), hash).map((user) => ({
        ...user,
        _id: newId(),
      }));
      await users.insertMany(batch);
      const progressRows: Array<ProgressDoc> = [];
      for (const [j, user] of batch.entries()) {
        const n = done + j;
        const taken: string[] = [];
        for (let k = 0; k < options.progressPerMember; k++) {
          const row = progressRow(n, k, user._id, courses, Date.now());
          const course = courses[courseIndexOf(n, k, courses.length)]!;
          const finished = row.completedAt !== null;
          taken.push(course.id);
          progressRows.push(row);
          const kept = counts.get(course.id) ?? { started: 0, completed: 0 };
          kept.started += 1;
          if (finished) kept.completed += 1;
          counts.set(course.id, kept);
        }
        if (n % every === 0 && user.status === 'active' && sample.length < options.signedIn)
          sample.push({ id: user._id, tier: user.membershipTier, courseIds: taken });
      }
      await progress.progress.insertMany(progressRows);
      options.onProgress?.(
        progressRows,
        new Map(
          batch.map((user) => [
            user._id,
            { createdAt: user.createdAt ?? new Date(), paidSince: user.paidSince },
          ]),
        ),
      );
      if ((done / BATCH) % 20 === 0)
        options.log(
          `${done + batch.length} members, ${(done + batch.length) * options.progressPerMember} progress rows, ${((performance.now() - started) / 1000).toFixed(0)} s`,
        );
    }
    const indexing = performance.now();
    await progress.init();
    options.log(`progress indexed in ${((performance.now() - indexing) / 1000).toFixed(0)} s`);
    await progress.counts.insertMany(
      [...counts].map(([id, kept]) => ({ _id: id, ...kept }) as CourseCountsDoc & { _id: string }),
    );

    // Sessions and tokens as a sign-in would make them (sign-ins themselves are rate limited per address).
    const tokens = new TokenService(await loadTokenKey(options.dataDir, options.jwtSecret));
    const members: SeededSite['members'] = [];
    for (const member of sample) {
      const session = await sessions.create({
        userId: member.id,
        expiresAt: tokens.expiryFromNow(),
        lastSeenAt: new Date(),
        userAgent: 'bench',
        ip: '127.0.0.1',
      });
      members.push({
        ...member,
        token: await tokens.sign({ id: member.id, role: 'user' }, session._id, session.expiresAt),
      });
    }

    // The video: a public course's first lesson, served from the lessons folder.
    const course = courses.find((c) => c.access === 'public')!;
    const lessonId = course.lessonIds[0]!;
    const folder = path.join(options.dataDir, 'lessons');
    await mkdir(folder, { recursive: true });
    const storedName = `${randomBytes(16).toString('hex')}.mp4`;
    const bytes = options.videoMb * 1024 * 1024;
    const handle = await open(path.join(folder, storedName), 'w');
    const chunk = randomBytes(4 * 1024 * 1024);
    for (let written = 0; written < bytes; written += chunk.length)
      await handle.write(chunk, 0, Math.min(chunk.length, bytes - written));
    await handle.close();
    const file = await files.insert({
      courseId: course.id,
      lessonId,
      slot: 'media',
      name: 'lesson.mp4',
      storedName,
      size: bytes,
      mime: 'video/mp4',
    });
    await repository.updateLesson(lessonId, {
      media: { id: file._id, name: 'lesson.mp4', size: bytes, mime: 'video/mp4', kind: 'video' },
    });
    return { courses, members, video: { slug: course.slug, lessonId, bytes } };
  } finally {
    await store.close();
  }
}
