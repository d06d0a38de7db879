import { afterEach, describe, expect, it } from 'vitest';
import { createBulkDelivery } from '../../../mail/mailer';
import { openMongoStore } from '../../../store/mongo/store';
import type { Store } from '../../../store/store';
import { ferretDbForFile } from '../../../test/ferretdb';
import { announceToEveryone, bulkSenderDeps, silentLog } from '../../../test/mail-kit';
import { startSmtpPeer } from '../../../test/smtp-peer';
import { type UserDoc, UsersRepository } from '../../users/users.repository';
import { AnnouncementsRepository } from '../announcements/announcements.repository';
import { MailSettingsRepository } from '../mail-settings.repository';
import { PreferencesRepository } from '../preferences/preferences.repository';
import { BULK_CONNECTIONS, BulkSender } from './bulk-sender';

/*
 * Never twice on MongoDB: three instances (each its own connection to one database on FerretDB,
 * a real MongoDB-compatible server whose updates are not atomic: the adapter locks documents
 * there) run two senders each, as two workers would, all kicking at once, with short rounds so
 * that the `mail-bulk` lease changes hands many times. Each sender has its own SMTP connections
 * to one real SMTP server, which counts what it receives: every member gets exactly one copy.
 */

const MEMBERS = 150;
const INSTANCES = 3;
const WORKERS = 2;

const ferret = ferretDbForFile();
const opened: Store[] = [];
const closing: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  for (const store of opened.splice(0)) await store.close();
});

function sender(store: Store, smtpUrl: string): { sender: BulkSender; sent: () => number } {
  const bulk = createBulkDelivery({ smtpUrl, dataDir: '/nonexistent', log: silentLog }, BULK_CONNECTIONS);
  let sent = 0;
  const counting = {
    ...bulk,
    deliver: async (...args: Parameters<typeof bulk.deliver>) => {
      await bulk.deliver(...args);
      sent += 1;
    },
  };
  closing.push(() => bulk.close());
  const one = new BulkSender({ ...bulkSenderDeps(store, counting), roundMs: 400 });
  closing.push(() => one.close());
  return { sender: one, sent: () => sent };
}

describe.skipIf(!ferret)('several workers and instances on MongoDB (FerretDB)', () => {
  it('send each member of an announcement exactly one copy', { timeout: 120_000 }, async () => {
    const smtp = await startSmtpPeer();
    closing.push(() => smtp.close());
    const uri = ferret!.freshUri('bulk');
    const stores: Store[] = [];
    for (let i = 0; i < INSTANCES; i++) stores.push(await openMongoStore(uri));
    opened.push(...stores);
    const first = stores[0]!;
    const announcements = new AnnouncementsRepository(first);
    await Promise.all([
      announcements.init(),
      new UsersRepository(first).init(),
      new PreferencesRepository(first).init(),
      new MailSettingsRepository(first).init(),
    ]);
    await new MailSettingsRepository(first).saveBulk({ perMinute: 6000 });
    await first.collection<UserDoc>('users').insertMany(
      Array.from({ length: MEMBERS }, (_, i) => ({
        name: `Member ${i}`,
        email: `member${i}@example.com`,
        password: 'x',
        role: 'user' as const,
        membershipTier: 'free' as const,
        status: 'active' as const,
      })),
    );
    const made = await announceToEveryone(first, 'Once each', MEMBERS);
    const smtpUrl = `smtp://127.0.0.1:${smtp.port}`;
    const senders = stores.flatMap((store) => Array.from({ length: WORKERS }, () => sender(store, smtpUrl)));

    // Until sent, or 90 s: then what arrived is counted all the same (a copy twice is the failure to see).
    const deadline = Date.now() + 90_000;
    while ((await announcements.find(made._id))?.state !== 'sent' && Date.now() < deadline)
      await Promise.all(senders.map(({ sender: one }) => one.kick()));

    const mails = smtp.received.filter((mail) => mail.subject === 'Once each');
    const byRecipient = new Map<string, number>();
    for (const mail of mails) byRecipient.set(mail.to, (byRecipient.get(mail.to) ?? 0) + 1);
    const twice = [...byRecipient].filter(([, n]) => n > 1).map(([to]) => to);
    expect(twice).toEqual([]);
    expect((await announcements.find(made._id))?.state).toBe('sent');
    expect(byRecipient.size).toBe(MEMBERS);
    expect(new Set(mails.map((mail) => mail.messageId)).size).toBe(mails.length);
    expect(mails).toHaveLength(MEMBERS);
    expect((await announcements.tallies(made._id)).sent).toBe(MEMBERS);
    // The lease changed hands: more than one sender, on more than one instance, sent some.
    const working = senders.map(({ sent }, i) => ({ instance: Math.floor(i / WORKERS), sent: sent() }));
    expect(new Set(working.filter((one) => one.sent > 0).map((one) => one.instance)).size).toBeGreaterThan(1);
  });
});
