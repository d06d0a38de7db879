import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Segment } from '@common/schemas/mail-members';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../store/store';
import { bothStores } from '../../../test/both-stores';
import { CoursesRepository } from '../../courses/courses.repository';
import { type ProgressDoc, ProgressRepository, progressId } from '../../courses/progress/progress.repository';
import { type UserDoc, UsersRepository } from '../../users/users.repository';
import { PreferencesRepository, wants } from '../preferences/preferences.repository';
import { Segments } from './segments';

/*
 * The count the owner sees before sending, on both stores: exactly the members the sender then
 * mails. Not administrators or suspended accounts; not who turned announcements off or whose
 * address stopped (counted once when both); the tier rule for a paid course.
 */

const { stores, closeStandIns } = bothStores('mail-segments');

describe.each(stores)('segment counts on the %s', (_name, openStore) => {
  let dataDir: string;
  let store: Store;
  let segments: Segments;
  let preferences: PreferencesRepository;
  let courseId: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'mail-segments-'));
    store = await openStore(dataDir);
    const users = new UsersRepository(store);
    const courses = new CoursesRepository(store);
    const progress = new ProgressRepository(store);
    preferences = new PreferencesRepository(store);
    await Promise.all([users.init(), courses.init(), progress.init(), preferences.init()]);
    segments = new Segments(users, courses, progress, preferences);

    let n = 0;
    const person = (tier: UserDoc['membershipTier'], extra: Partial<UserDoc> = {}) => ({
      name: `Person ${++n}`,
      email: `person${n}@example.com`,
      password: 'not-a-hash',
      role: 'user' as const,
      membershipTier: tier,
      status: 'active' as const,
      ...extra,
    });
    const made = async (docs: Array<ReturnType<typeof person>>) => {
      const out: UserDoc[] = [];
      for (const doc of docs) out.push(await users.create(doc));
      return out;
    };
    const [paidOff, paidBoth, paid3, paid4, paid5] = await made(
      Array.from({ length: 5 }, () => person('paid')),
    );
    const [freeStopped, freeLessonsOff, free3, free4] = await made(
      Array.from({ length: 4 }, () => person('free')),
    );
    const [suspendedOff, , adminOff] = await made([
      person('paid', { status: 'suspended' }),
      person('free', { status: 'suspended' }),
      person('free', { role: 'admin' }),
      person('paid', { role: 'admin', status: 'suspended' }),
    ]);
    await preferences.turnOff(paidOff!._id, 'announcements');
    await preferences.turnOff(paidBoth!._id, 'announcements');
    await preferences.save(paidBoth!._id, { stopReason: 'complaint', stopEmail: paidBoth!.email });
    await preferences.save(freeStopped!._id, { stopReason: 'bounce', stopEmail: freeStopped!.email });
    await preferences.turnOff(freeLessonsOff!._id, 'lessons');
    await preferences.turnOff(suspendedOff!._id, 'announcements');
    await preferences.turnOff(adminOff!._id, 'announcements');

    const course = await courses.insertCourse({
      title: 'Deep course',
      slug: 'deep-course',
      summary: '',
      coverUrl: null,
      access: 'paid',
      published: true,
      position: 1,
      lessonCount: 0,
      totalMinutes: 0,
    });
    courseId = course._id;
    const started = (user: UserDoc, completedAt: Date | null): ProgressDoc => ({
      _id: progressId(user._id, courseId),
      userId: user._id,
      courseId,
      completed: [],
      positions: {},
      lastLessonId: null,
      lastAt: new Date(),
      completedAt,
      rev: 1,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    // A free member who started the paid course is not its recipient; neither is paidOff.
    await progress.progress.insertMany([
      started(paidOff!, new Date()),
      started(paid3!, new Date()),
      started(paid4!, null),
      started(paid5!, new Date()),
      started(free3!, new Date()),
      started(suspendedOff!, new Date()),
    ]);
    void free4;
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await closeStandIns();
  });

  /** The members the sender would mail: every page of the segment, less who does not want it. */
  async function mailed(segment: Segment): Promise<number> {
    let total = 0;
    let after: string | null = null;
    for (;;) {
      const page = await segments.page(segment, after, 2);
      const prefs = await preferences.ofMany(page.recipients.map((r) => r.userId));
      total += page.recipients.filter((r) => wants(prefs.get(r.userId), 'announcements')).length;
      if (page.done) return total;
      after = page.last;
    }
  }

  it.each([
    ['everyone', 6],
    ['free', 3],
    ['paid', 3],
    ['course', 3],
    ['completed', 2],
  ] as const)('%s: %i members, the number the sender mails', async (kind, expected) => {
    const segment = (kind === 'course' || kind === 'completed' ? { kind, courseId } : { kind }) as Segment;
    expect(await segments.count(segment)).toBe(expected);
    expect(await mailed(segment)).toBe(expected);
  });
});
