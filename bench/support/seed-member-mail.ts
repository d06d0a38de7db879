import { CoursesRepository } from '../../server/src/features/courses/courses.repository';
import {
  type ProgressDoc,
  ProgressRepository,
  progressId,
} from '../../server/src/features/courses/progress/progress.repository';
import type { PreferencesDoc } from '../../server/src/features/mail/preferences/preferences.repository';
import { hashPassword } from '../../server/src/features/users/passwords';
import type { UserDoc } from '../../server/src/features/users/users.repository';
import { UsersRepository } from '../../server/src/features/users/users.repository';
import { openEmbeddedStore } from '../../server/src/store/sqlite/store';
import type { Store } from '../../server/src/store/store';
import { seedUsers } from './seed-users';

/** Progress documents per insert. */
const BATCH = 20_000;

/**
 * The member-mail bench's site, written straight into the embedded store before the product
 * starts: `members` demo members (one argon2 hash), the reset bench's own addresses, one member
 * in 50 with announcements off and one in 1,000 whose address bounced, and a paid course that
 * one member in 10 started (half of them completed it).
 */
export async function seedMemberMail(
  dataDir: string,
  members: number,
  resetAddresses: string[],
): Promise<{ off: number; stopped: number; started: number }> {
  const offIds: string[] = [];
  const stoppedIds: string[] = [];
  const startedIds: string[] = [];
  await seedUsers(dataDir, members, (ids) =>
    ids.forEach((id, i) => {
      if (i % 50 === 7) offIds.push(id);
      else if (i % 1000 === 3) stoppedIds.push(id);
      if (i % 10 === 1) startedIds.push(id);
    }),
  );
  const store = await openEmbeddedStore(dataDir);
  try {
    const hash = await hashPassword('reset-password');
    await new UsersRepository(store).insertMany(
      resetAddresses.map((email) => ({
        name: `Reset ${email}`,
        email,
        password: hash,
        role: 'user' as UserDoc['role'],
        membershipTier: 'free' as const,
        status: 'active' as const,
      })),
    );
    await store.collection<PreferencesDoc>('mail_preferences').insertMany([
      ...offIds.map((_id) => ({ _id, announcements: false, lessons: true })),
      ...stoppedIds.map((_id) => ({
        _id,
        announcements: true,
        lessons: true,
        stopReason: 'bounce' as const,
      })),
    ]);
    await seedPaidCourse(store, startedIds);
  } finally {
    await store.close();
  }
  return { off: offIds.length, stopped: stoppedIds.length, started: startedIds.length };
}

/** A published paid course, started by these members (every other one completed it). */
export async function seedPaidCourse(store: Store, startedIds: string[]): Promise<void> {
  const courses = new CoursesRepository(store);
  await courses.init();
  const course = await courses.insertCourse({
    title: 'Bench course',
    slug: 'bench-course',
    summary: 'For the member-mail bench.',
    coverUrl: null,
    access: 'paid',
    published: true,
    position: 1,
    lessonCount: 0,
    totalMinutes: 0,
  });
  const progress = new ProgressRepository(store);
  const now = new Date();
  for (let done = 0; done < startedIds.length; done += BATCH)
    await progress.progress.insertMany(
      startedIds.slice(done, done + BATCH).map(
        (userId, i): ProgressDoc => ({
          _id: progressId(userId, course._id),
          userId,
          courseId: course._id,
          completed: [],
          positions: {},
          lastLessonId: null,
          lastAt: now,
          completedAt: i % 2 === 0 ? now : null,
          rev: 1,
          createdAt: now,
          updatedAt: now,
        }),
      ),
    );
  await progress.init();
}
