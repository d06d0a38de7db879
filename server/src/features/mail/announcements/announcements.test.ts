import type { AnnouncementView } from '@common/schemas/mail-members';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from '../../../test/courses-kit';
import { type ReceivedMail, startSmtpPeer } from '../../../test/smtp-peer';
import { bearer, createTestApp, createUser, type TestApp } from '../../../test/test-app';
import { type ProgressDoc, progressId } from '../../courses/progress/progress.repository';
import type { UserDoc } from '../../users/users.repository';

/*
 * Announcements end to end over real SMTP: the segment rules, the headers inboxes require, the
 * unsubscribe address (GET changes nothing, POST does), hard bounces, and bad input refused.
 */

const SITE = 'https://members.example.com';
let peer: Awaited<ReturnType<typeof startSmtpPeer>>;
let t: TestApp;
let admin: { user: UserDoc; token: string };
let call: ReturnType<typeof adminApi>;
let people = 0;

async function members(tier: 'free' | 'paid', count: number, prefix: string = tier): Promise<UserDoc[]> {
  const made: UserDoc[] = [];
  for (let i = 0; i < count; i++) {
    people += 1;
    made.push(
      await t.store.collection<UserDoc>('users').insertOne({
        name: `${prefix} ${people}`,
        email: `${prefix}${people}@example.com`,
        password: 'not-a-hash',
        role: 'user',
        membershipTier: tier,
        status: 'active',
      }),
    );
  }
  return made;
}

async function sendAndWait(body: Record<string, unknown>): Promise<AnnouncementView> {
  const created = await call<AnnouncementView>('POST', '/api/admin/mail/announcements', body);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const now = await call<AnnouncementView>('GET', `/api/admin/mail/announcements/${created.id}`);
    if (now.state === 'sent') return now;
    if (Date.now() > deadline) throw new Error(`Announcement still ${now.state}: ${JSON.stringify(now)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const received = (subject: string): ReceivedMail[] =>
  peer.received.filter((mail) => mail.subject === subject);

beforeAll(async () => {
  peer = await startSmtpPeer(0, (to) => to.startsWith('gone'));
  t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${peer.port}`, PUBLIC_URL: SITE });
  admin = await createUser(t, { role: 'admin', email: 'owner@example.com' });
  call = adminApi(t, admin.token);
  await call('PUT', '/api/admin/mail/settings', { perMinute: 6000 });
}, 30_000);

afterAll(async () => {
  await t?.close();
  await peer?.close();
});

describe('announcements', () => {
  it('reach paid members only, with one-click unsubscribe, a List-Id and sanitised HTML', async () => {
    const free = await members('free', 3, 'tierfree');
    const paid = await members('paid', 4, 'tierpaid');
    const counted = await call<{ recipients: number }>('POST', '/api/admin/mail/announcements/count', {
      segment: { kind: 'paid' },
    });
    expect(counted.recipients).toBe(4);
    const done = await sendAndWait({
      subject: 'For paid members',
      markdown: 'Hello **friends** <script>alert(1)</script><img src=x onerror=alert(2)> [site](/courses)',
      segment: { kind: 'paid' },
    });
    expect(done).toMatchObject({ recipients: 4, sent: 4, failed: 0, queued: 0 });
    const mails = received('For paid members');
    expect(mails.map((mail) => mail.to).sort()).toEqual(paid.map((user) => user.email).sort());
    for (const user of free) expect(mails.some((mail) => mail.to.includes(user.email))).toBe(false);
    for (const mail of mails) {
      expect(mail.headers.get('list-unsubscribe')).toMatch(
        new RegExp(`^<${SITE}/api/mail/unsubscribe/[0-9a-f]{24}-announcements-[\\w-]{22}>$`),
      );
      expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      expect(mail.headers.get('list-id')).toContain('<announcements.members.example.com>');
      expect(mail.html).toContain('<strong>friends</strong>');
      expect(mail.html).toContain(`href="${SITE}/courses"`);
      expect(mail.html).not.toMatch(/<script|onerror|alert\(/);
    }
    // Each member's own address: one member's link does not name another.
    expect(new Set(mails.map((mail) => mail.headers.get('list-unsubscribe'))).size).toBe(4);
  });

  it('to a paid course reach only paid members who started it, and "completed" only those who finished', async () => {
    const course = await call<{ id: string }>('POST', '/api/admin/courses', { title: 'Deep course' });
    await call('PUT', `/api/admin/courses/${course.id}`, { access: 'paid', published: true });
    const [freeStarter] = await members('free', 1, 'coursefree');
    const [paidStarter, paidFinisher] = await members('paid', 2, 'coursepaid');
    await members('paid', 1, 'coursenever');
    const progress = (user: UserDoc, completedAt: Date | null) => ({
      _id: progressId(user._id, course.id),
      userId: user._id,
      courseId: course.id,
      completed: [],
      positions: {},
      lastLessonId: null,
      lastAt: new Date(),
      completedAt,
      rev: 1,
    });
    await t.store
      .collection<ProgressDoc>('course_progress')
      .insertMany([
        progress(freeStarter!, new Date()),
        progress(paidStarter!, null),
        progress(paidFinisher!, new Date()),
      ]);

    const started = await sendAndWait({
      subject: 'Course news',
      markdown: 'New things.',
      segment: { kind: 'course', courseId: course.id },
    });
    expect(started.segmentLabel).toBe('Members of Deep course');
    expect(
      received('Course news')
        .map((mail) => mail.to)
        .sort(),
    ).toEqual([paidStarter!.email, paidFinisher!.email].sort());
    await sendAndWait({
      subject: 'Well done',
      markdown: 'You finished.',
      segment: { kind: 'completed', courseId: course.id },
    });
    expect(received('Well done').map((mail) => mail.to)).toEqual([paidFinisher!.email]);
  });

  it('refuse a segment that does not exist, an empty text and a time gone by', async () => {
    const refused = async (payload: Record<string, unknown>) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/admin/mail/announcements',
        headers: bearer(admin.token),
        payload,
      });
      expect(response.statusCode).toBe(400);
      return response.json().message as string;
    };
    const good = { subject: 'Hi', markdown: 'Text', segment: { kind: 'everyone' } };
    expect(await refused({ ...good, segment: { kind: 'vips' } })).toBeTruthy();
    expect(await refused({ ...good, segment: { kind: 'course', courseId: 'a'.repeat(24) } })).toMatch(
      /course does not exist/,
    );
    expect(await refused({ ...good, markdown: '   ' })).toMatch(/empty/);
    expect(await refused({ ...good, scheduledAt: new Date(Date.now() - 3_600_000).toISOString() })).toMatch(
      /passed/,
    );
    const list = await call<AnnouncementView[]>('GET', '/api/admin/mail/announcements');
    expect(list.some((a) => a.subject === 'Hi')).toBe(false);
  });

  it('waits until its time when scheduled, and can be cancelled meanwhile', async () => {
    const later = await call<AnnouncementView>('POST', '/api/admin/mail/announcements', {
      subject: 'Tomorrow',
      markdown: 'Later.',
      segment: { kind: 'everyone' },
      scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await call<AnnouncementView>('GET', `/api/admin/mail/announcements/${later.id}`)).state).toBe(
      'scheduled',
    );
    expect(received('Tomorrow')).toEqual([]);
    const cancelled = await call<AnnouncementView>(
      'POST',
      `/api/admin/mail/announcements/${later.id}/cancel`,
    );
    expect(cancelled.state).toBe('cancelled');
  });

  it('unsubscribe address: GET shows choices and changes nothing, POST one-click unsubscribes', async () => {
    const [reader] = await members('free', 1, 'reader');
    await sendAndWait({ subject: 'First news', markdown: 'One.', segment: { kind: 'free' } });
    const mail = received('First news').find((m) => m.to === reader!.email)!;
    const address = /^<(.+)>$/.exec(mail.headers.get('list-unsubscribe')!)![1]!;
    const path = address.slice(SITE.length);

    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Unsubscribe from announcements');
    expect(page.body).toContain(reader!.email);
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    const signIn = await createUserToken(reader!);
    expect(await preferencesOf(signIn)).toEqual({ announcements: true, lessons: true });

    const oneClick = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(await preferencesOf(signIn)).toEqual({ announcements: false, lessons: true });

    const second = await sendAndWait({ subject: 'Second news', markdown: 'Two.', segment: { kind: 'free' } });
    expect(received('Second news').some((m) => m.to === reader!.email)).toBe(false);
    expect(second.unsubscribed).toBeGreaterThanOrEqual(1);

    // Transactional mail is never held back, and never carries the list headers.
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: reader!.email },
    });
    const deadline = Date.now() + 10_000;
    let reset: ReceivedMail | undefined;
    while (!reset && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      reset = peer.received.find((m) => m.to === reader!.email && /reset your password/.test(m.subject));
    }
    expect(reset).toBeDefined();
    expect(reset!.headers.has('list-unsubscribe')).toBe(false);

    const forged = await t.app.inject({ method: 'POST', url: `${path.slice(0, -3)}abc` });
    expect(forged.statusCode).toBe(404);
  });

  it('stops bulk mail to an address after a hard bounce, and shows why', async () => {
    const [gone] = await members('free', 1, 'gone');
    const first = await sendAndWait({ subject: 'Bounce one', markdown: 'x', segment: { kind: 'free' } });
    expect(first.failed).toBe(1);
    expect(first.failures[0]).toMatchObject({ to: gone!.email });
    expect(first.failures[0]!.error).toMatch(/refused the message \(550/);
    const stops = await call<Array<{ email: string; reason: string; detail: string }>>(
      'GET',
      '/api/admin/mail/stops',
    );
    expect(stops).toContainEqual(expect.objectContaining({ email: gone!.email, reason: 'bounce' }));
    const second = await sendAndWait({ subject: 'Bounce two', markdown: 'x', segment: { kind: 'free' } });
    expect(second.failed).toBe(0);
  });

  it('lets a member choose on /account, and the owner mark a complaint', async () => {
    const [chooser] = await members('paid', 1, 'chooser');
    const token = await createUserToken(chooser!);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/mail/preferences',
      headers: bearer(token),
      payload: { announcements: false, lessons: false },
    });
    expect(saved.statusCode).toBe(200);
    expect(await preferencesOf(token)).toEqual({ announcements: false, lessons: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/mail/preferences' })).statusCode).toBe(401);

    const [complainer] = await members('paid', 1, 'complainer');
    await call('POST', '/api/admin/mail/stops', { email: complainer!.email });
    await sendAndWait({ subject: 'After complaint', markdown: 'x', segment: { kind: 'paid' } });
    expect(received('After complaint').some((m) => m.to === complainer!.email)).toBe(false);
    expect(received('After complaint').some((m) => m.to === chooser!.email)).toBe(false);
  });
});

async function createUserToken(user: UserDoc): Promise<string> {
  const { hashPassword } = await import('../../users/passwords');
  await t.store
    .collection<UserDoc>('users')
    .updateById(user._id, { password: await hashPassword('correct-horse') });
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: 'correct-horse' },
  });
  return login.json().token as string;
}

async function preferencesOf(token: string): Promise<unknown> {
  return (await t.app.inject({ method: 'GET', url: '/api/mail/preferences', headers: bearer(token) })).json()
    .data;
}
