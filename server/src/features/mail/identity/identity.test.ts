import type { MailIdentityView } from '@common/schemas/mail-members';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from '../../../test/courses-kit';
import { startSmtpPeer } from '../../../test/smtp-peer';
import { bearer, createTestApp, createUser, type TestApp } from '../../../test/test-app';
import type { UserDoc } from '../../users/users.repository';

/* The From address and the DKIM key set in the console, on every mail (reset and bulk alike). */

let peer: Awaited<ReturnType<typeof startSmtpPeer>>;
let t: TestApp;
let admin: { user: UserDoc; token: string };
let call: ReturnType<typeof adminApi>;

beforeAll(async () => {
  peer = await startSmtpPeer();
  t = await createTestApp({
    SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
    PUBLIC_URL: 'https://members.example.com',
    MAIL_FROM: 'no-reply@members.example.com',
  });
  admin = await createUser(t, { role: 'admin', email: 'owner@example.com' });
  call = adminApi(t, admin.token);
});

afterAll(async () => {
  await t?.close();
  await peer?.close();
});

describe('the mail identity', () => {
  it('refuses a From on another domain, accepts one on the site’s', async () => {
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/mail/identity',
      headers: bearer(admin.token),
      payload: { from: 'news@gmail.com' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/site’s own domain/);
    const saved = await call<MailIdentityView>('PUT', '/api/admin/mail/identity', {
      from: 'news@example.com',
    });
    expect(saved.from).toBe('news@example.com');
  });

  it('makes a DKIM key, shows its DNS record with SPF and DMARC, never the private key, and signs every mail', async () => {
    const made = await call<MailIdentityView>('POST', '/api/admin/mail/identity/dkim');
    expect(made.dkim?.selector).toMatch(/^members\d{8}$/);
    const dkim = made.records.find(
      (record) => record.name === `${made.dkim!.selector}._domainkey.example.com`,
    );
    expect(dkim?.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
    expect(made.records.map((record) => record.name)).toEqual(
      expect.arrayContaining(['example.com', '_dmarc.example.com']),
    );
    const raw = (
      await t.app.inject({ method: 'GET', url: '/api/admin/mail/identity', headers: bearer(admin.token) })
    ).body;
    expect(raw).not.toMatch(/PRIVATE KEY/);

    await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: admin.user.email },
    });
    const reset = await peer.waitFor(admin.user.email);
    expect(reset.headers.get('from')).toContain('news@example.com');
    expect(reset.headers.get('dkim-signature')).toMatch(/d=example\.com; .*s=members\d{8}/);
  });
});
