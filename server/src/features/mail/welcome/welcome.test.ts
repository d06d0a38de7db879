import type { WelcomeSettings } from '@common/schemas/mail-members';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from '../../../test/courses-kit';
import { type ReceivedMail, startSmtpPeer } from '../../../test/smtp-peer';
import { bearer, createTestApp, createUser, type TestApp } from '../../../test/test-app';
import type { UserDoc } from '../../users/users.repository';

/* The welcome mails over real SMTP: on by default, one on joining, one on becoming paid. */

const SITE = 'https://members.example.com';
let peer: Awaited<ReturnType<typeof startSmtpPeer>>;
let t: TestApp;
let admin: { user: UserDoc; token: string };
let call: ReturnType<typeof adminApi>;

async function mailFor(to: string, subject: RegExp): Promise<ReceivedMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = peer.received.find((m) => m.to === to && subject.test(m.subject));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`No mail "${subject}" for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

beforeAll(async () => {
  peer = await startSmtpPeer();
  t = await createTestApp(
    { SMTP_URL: `smtp://127.0.0.1:${peer.port}`, PUBLIC_URL: SITE },
    { welcomeMails: true },
  );
  admin = await createUser(t, { role: 'admin', email: 'owner@example.com' });
  call = adminApi(t, admin.token);
});

afterAll(async () => {
  await t?.close();
  await peer?.close();
});

describe('welcome mails', () => {
  it('greet a member who signs up, by name, with links to the site, and no unsubscribe header', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Ada Lovelace', email: 'ada@example.com', password: 'secret1' },
    });
    expect(response.statusCode).toBe(201);
    const mail = await mailFor('ada@example.com', /^Welcome to /);
    expect(mail.subject).toBe('Welcome to My Site, Ada Lovelace');
    expect(mail.text).toContain('Hello Ada Lovelace');
    expect(mail.html).toContain(`href="${SITE}/dashboard"`);
    expect(mail.headers.has('list-unsubscribe')).toBe(false);
  });

  it('thank a member the owner makes paid, once, and never an administrator', async () => {
    const member = await createUser(t, { email: 'gift@example.com' });
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${member.user._id}`,
      headers: bearer(admin.token),
      payload: { membershipTier: 'paid' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const mail = await mailFor('gift@example.com', /paid membership/);
    expect(mail.text).toContain('Every course and lesson is now open to you.');
    await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${member.user._id}`,
      headers: bearer(admin.token),
      payload: { name: 'Gift again' },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(peer.received.filter((m) => m.to === 'gift@example.com')).toHaveLength(1);
    expect(peer.received.some((m) => m.to === 'owner@example.com' && /^Welcome/.test(m.subject))).toBe(false);
  });

  it('are edited by the owner, tried with a test, and stay silent when turned off', async () => {
    const current = await call<WelcomeSettings>('GET', '/api/admin/mail/welcome');
    expect(current.free.enabled && current.paid.enabled).toBe(true);
    await call('POST', '/api/admin/mail/welcome/test', {
      tier: 'free',
      subject: 'Hi {{name}}',
      markdown: 'Welcome **{{name}}** <script>alert(1)</script>',
    });
    const test = await mailFor('owner@example.com', /^\[Test\] Hi /);
    expect(test.html).toContain('<strong>');
    expect(test.html).not.toContain('<script');

    await call('PUT', '/api/admin/mail/welcome', { ...current, free: { ...current.free, enabled: false } });
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Quiet', email: 'quiet@example.com', password: 'secret1' },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(peer.received.some((m) => m.to === 'quiet@example.com')).toBe(false);

    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/mail/welcome',
      headers: bearer(admin.token),
      payload: { ...current, paid: { ...current.paid, markdown: ' ' } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/empty/);
  });
});
