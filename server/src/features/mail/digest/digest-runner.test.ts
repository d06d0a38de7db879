import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliverableMail, MailDelivery } from '../../../mail/mail-delivery';
import { announceToEveryone, bulkSenderDeps } from '../../../test/mail-kit';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { CoursesRepository } from '../../courses/courses.repository';
import { ProgressRepository } from '../../courses/progress/progress.repository';
import type { UserDoc } from '../../users/users.repository';
import { UsersRepository } from '../../users/users.repository';
import { AnnouncementsRepository } from '../announcements/announcements.repository';
import { BulkSender } from '../bulk/bulk-sender';
import { MailSettingsRepository } from '../mail-settings.repository';
import { PreferencesRepository } from '../preferences/preferences.repository';
import { DigestRunner } from './digest-runner';

/*
 * The daily digest on a real store with a fake clock: the day a section drips open, one mail
 * per member, only for the courses they started and may open, never twice for one day.
 */

const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;
let clock = Date.now();
const sent: DeliverableMail[] = [];
/** When each of `sent` was handed over (the real clock: the pace is timed by it). */
const sentAt: number[] = [];
const delivery: MailDelivery = {
  kind: 'outbox',
  where: 'in the test',
  deliver: async (mail) => {
    sent.push(mail);
    sentAt.push(Date.now());
  },
  close: () => undefined,
};
let runner: DigestRunner;
let preferences: PreferencesRepository;
let settings: MailSettingsRepository;
let progress: ProgressRepository;
let yogaId: string;

async function person(email: string, tier: 'free' | 'paid', joinedDaysAgo: number): Promise<UserDoc> {
  const joined = new Date(clock - joinedDaysAgo * DAY);
  await t.store.collection<UserDoc>('users').insertMany([
    {
      name: email.split('@')[0]!,
      email,
      password: 'x',
      role: 'user',
      membershipTier: tier,
      status: 'active',
      createdAt: joined,
      updatedAt: joined,
    },
  ]);
  return (await t.store.collection<UserDoc>('users').findOne({ email }))!;
}

beforeAll(async () => {
  t = await createTestApp();
  const courses = new CoursesRepository(t.store);
  progress = new ProgressRepository(t.store);
  const announcements = new AnnouncementsRepository(t.store);
  preferences = new PreferencesRepository(t.store);
  settings = new MailSettingsRepository(t.store);
  await settings.saveBulk({ perMinute: 6000 });
  runner = new DigestRunner({
    ...bulkSenderDeps(t.store, delivery),
    store: t.store,
    users: new UsersRepository(t.store),
    courses,
    progress,
    announcements,
    preferences,
    settings,
    now: () => new Date(clock),
  });
  const course = async (title: string, access: 'members' | 'paid') => {
    const made = await courses.insertCourse({
      title,
      slug: title.toLowerCase().replace(/\s+/g, '-'),
      summary: '',
      coverUrl: null,
      access,
      published: true,
      position: 0,
      lessonCount: 2,
      totalMinutes: 0,
    });
    const start = await courses.insertSection({
      courseId: made._id,
      title: 'Start',
      position: 0,
      drip: { kind: 'none' },
    });
    const week = await courses.insertSection({
      courseId: made._id,
      title: 'Week 2',
      position: 1,
      drip: { kind: 'days', days: 7 },
    });
    for (const [section, name] of [
      [start, 'Hello'],
      [week, 'Second week'],
    ] as const)
      await courses.insertLesson({
        courseId: made._id,
        sectionId: section._id,
        title: `${title}: ${name}`,
        position: 0,
        freePreview: false,
        durationMinutes: 5,
        media: null,
        downloads: [],
        rev: 0,
      });
    return made;
  };
  const yoga = await course('Yoga', 'members');
  yogaId = yoga._id;
  const deep = await course('Deep', 'paid');
  const started = async (user: UserDoc, courseId: string) =>
    progress.write(user._id, courseId, () => ({ lastAt: new Date(clock) }));
  const ada = await person('ada@example.com', 'free', 6.5);
  await started(ada, yoga._id);
  await started(ada, deep._id); // free: the paid course never counts
  const bo = await person('bo@example.com', 'paid', 6.5);
  await started(bo, yoga._id);
  await started(bo, deep._id);
  await person('cy@example.com', 'free', 6.5); // started nothing
  const di = await person('di@example.com', 'free', 6.5);
  await started(di, yoga._id);
  await preferences.turnOff(di._id, 'lessons');
}, 30_000);

afterAll(async () => {
  await t?.close();
});

describe('the new-lessons digest', () => {
  it('sends nothing on its first day: what opened before is not news', async () => {
    expect(await runner.runDue()).toBe(0);
    clock += DAY / 4;
    expect(await runner.runDue()).toBe(0);
    expect(sent).toEqual([]);
  });

  it('a day later, one mail per member whose section opened, with every course they started and may open', async () => {
    clock += DAY;
    expect(await runner.runDue()).toBe(2);
    const to = (email: string) => sent.filter((mail) => mail.mail.to === email);
    expect(to('ada@example.com').map((mail) => mail.mail.subject)).toEqual(['New lessons in Yoga']);
    expect(to('ada@example.com')[0]!.mail.text).not.toContain('Deep');
    expect(to('bo@example.com').map((mail) => mail.mail.subject)).toEqual(['New lessons in your courses']);
    expect(to('bo@example.com')[0]!.mail.text).toContain('Deep: Second week');
    expect(to('bo@example.com')[0]!.mail.list?.unsubscribe?.url).toMatch(/-lessons-/);
    expect(to('cy@example.com')).toEqual([]);
    expect(to('di@example.com')).toEqual([]);
  });

  it('never twice a day, and nothing the next day when nothing opened', async () => {
    expect(await runner.runDue()).toBe(0);
    clock += DAY;
    expect(await runner.runDue()).toBe(0);
    expect(sent).toHaveLength(2);
  });
});

describe('one pace for the digest and announcements', () => {
  it("keeps a digest and an announcement going out together within the owner's messages per minute", async () => {
    // 20 a second: windows of 1 s with 20 messages each (bulk/pace.ts).
    await settings.saveBulk({ perMinute: 1200 });
    for (let i = 0; i < 24; i++) {
      const member = await person(`pace${i}@example.com`, 'free', 6.5);
      await progress.write(member._id, yogaId, () => ({ lastAt: new Date(clock) }));
    }
    clock += DAY;
    // The pace's window of the tests above (1 s at 6,000 a minute) ends first: this one starts afresh.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const announcements = new AnnouncementsRepository(t.store);
    const made = await announceToEveryone(t.store, 'Together', 0);
    const _users = new UsersRepository(t.store);
    // Another process's sender: its own pace object, the same budget in the store.
    const sender = new BulkSender(bulkSenderDeps(t.store, delivery));
    const from = sent.length;
    await Promise.all([
      runner.runDue(),
      (async () => {
        while ((await announcements.find(made._id))?.state !== 'sent') await sender.kick();
      })(),
    ]);
    await sender.close();

    const subjects = sent.slice(from).map((mail) => mail.mail.subject);
    const digests = subjects.filter((subject) => subject.startsWith('New lessons')).length;
    const announced = subjects.filter((subject) => subject === 'Together').length;
    expect(digests).toBe(24);
    // (The app's own sender, ticking in this process, may have taken a few: it draws from the same pace.)
    expect(announced).toBeGreaterThan(20);
    // n messages at 20 a second fill ceil(n / 20) windows: (that - 1) seconds from the first to the last at least.
    const times = sentAt.slice(from);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual((Math.ceil(times.length / 20) - 1) * 1000 - 50);
    // And never more than two windows' worth within a second, whichever of the two sent them.
    for (let i = 0; i + 40 < times.length; i++) expect(times[i + 40]! - times[i]!).toBeGreaterThan(900);
  });
});
