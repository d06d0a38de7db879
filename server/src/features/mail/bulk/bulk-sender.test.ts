import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliverableMail, MailDelivery } from '../../../mail/mail-delivery';
import { announceToEveryone, bulkSenderDeps, silentLog } from '../../../test/mail-kit';
import { createTestApp, type TestApp } from '../../../test/test-app';
import type { UserDoc } from '../../users/users.repository';
import { AnnouncementsRepository } from '../announcements/announcements.repository';
import { MailSettingsRepository } from '../mail-settings.repository';
import { PreferencesRepository } from '../preferences/preferences.repository';
import { BulkSender } from './bulk-sender';
import { SharedPace } from './pace';
import { sendOne } from './send-one';

/*
 * Several senders on one store (as several workers or machines are): each kicks again and again,
 * and every member gets the announcement once: the lease lets one send at a time, and the
 * records and the cursor let the next go on where the last stopped.
 */

const MEMBERS = 60;
let t: TestApp;
const delivered: DeliverableMail[] = [];

function sender(): BulkSender {
  const store = t.store;
  const delivery: MailDelivery = {
    kind: 'outbox',
    where: 'in the test',
    deliver: async (mail) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      delivered.push(mail);
    },
    close: () => undefined,
  };
  return new BulkSender(bulkSenderDeps(store, delivery));
}

beforeAll(async () => {
  t = await createTestApp();
  await new MailSettingsRepository(t.store).saveBulk({ perMinute: 6000 });
  await t.store.collection<UserDoc>('users').insertMany(
    Array.from({ length: MEMBERS }, (_, i) => ({
      name: `M ${i}`,
      email: `m${i}@example.com`,
      password: 'x',
      role: 'user' as const,
      membershipTier: 'free' as const,
      status: 'active' as const,
    })),
  );
});

afterAll(async () => {
  await t?.close();
});

describe('several senders on one store', () => {
  it('send each member one copy, never two', async () => {
    const announcements = new AnnouncementsRepository(t.store);
    const made = await announceToEveryone(t.store, 'Once each', MEMBERS);
    const senders = [sender(), sender(), sender()];
    const deadline = Date.now() + 30_000;
    while ((await announcements.find(made._id))?.state !== 'sent') {
      if (Date.now() > deadline) throw new Error('not sent within 30 s');
      await Promise.all(senders.map((one) => one.kick()));
    }
    const to = delivered.filter((mail) => mail.mail.subject === 'Once each').map((mail) => mail.mail.to);
    expect(to).toHaveLength(MEMBERS);
    expect(new Set(to).size).toBe(MEMBERS);
    expect(new Set(delivered.map((mail) => mail.messageId)).size).toBe(MEMBERS);
    expect((await announcements.tallies(made._id)).sent).toBe(MEMBERS);
    await Promise.all(senders.map((one) => one.close()));
  });
});

describe('a bulk message already handed over', () => {
  it('waits to be recorded while a transactional message is on its way', async () => {
    const announcements = new AnnouncementsRepository(t.store);
    const pace = new SharedPace(t.store.counters);
    const queueSide = new SharedPace(t.store.counters);
    const run = { id: 'give-way-run', createdAt: new Date() };
    const recipient = { userId: 'member-give-way', email: 'give-way@example.com', name: 'G' };
    const before = delivered.length;
    const held = await queueSide.transactional.queued();
    let outcome: string | undefined;
    const sending = sendOne(
      {
        announcements,
        preferences: new PreferencesRepository(t.store),
        delivery: () => ({
          kind: 'outbox',
          where: 'in the test',
          deliver: async (mail) => void delivered.push(mail),
          close: () => undefined,
        }),
        identity: async () => ({ from: 'site@members.example.com' }),
        log: silentLog,
        pace,
      },
      run,
      recipient,
      { from: 'site@members.example.com', to: recipient.email, subject: 'Later', text: 'News.' },
      1,
    ).then((result) => {
      outcome = result;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(delivered.length).toBe(before + 1);
    expect(outcome).toBeUndefined();
    expect((await announcements.recordsOf(run.id, [recipient.userId])).size).toBe(0);
    await queueSide.transactional.settled(held);
    await sending;
    expect(outcome).toBe('sent');
    expect((await announcements.recordsOf(run.id, [recipient.userId])).get(recipient.userId)?.state).toBe(
      'sent',
    );
  });
});
