import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../test/mail-kit';
import type { DeliverableMail, MailDelivery } from './mail-delivery';
import { MailQueue } from './mail-queue';

/*
 * What the queue tells bulk mail (features/mail/bulk/pace.ts gives way meanwhile): a message is
 * on its way from before it is prepared (a reset's token is written while bulk mail waits) until
 * its attempt ends, and a preparation that makes no message, or fails, ends it at once.
 */

let root = '';
let queue: MailQueue;
let told: string[];
let delivered: DeliverableMail[];
/** Attempts the delivery refuses before it takes one (a mail server down for a moment). */
let refusals = 0;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mail-queue-'));
  told = [];
  delivered = [];
  refusals = 0;
  const delivery: MailDelivery = {
    kind: 'outbox',
    where: 'in the test',
    deliver: async (message) => {
      told.push('delivering');
      if (refusals > 0) {
        refusals -= 1;
        throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      }
      delivered.push(message);
    },
    close: () => undefined,
  };
  queue = new MailQueue({ root, from: 'site@example.com', delivery, log: silentLog, retryDelaysMs: [50] });
  let holds = 0;
  queue.watcher = {
    queued: async () => {
      told.push('queued');
      holds += 1;
      return 1_000 * holds;
    },
    // Each end hands back the hold its message took.
    settled: async (heldUntil) => void told.push(`settled ${heldUntil}`),
  };
  await queue.start();
});
afterEach(async () => {
  await queue.close();
  await rm(root, { recursive: true, force: true });
});

const mail = { to: 'member@example.com', subject: 'reset your password', text: 'The link.' };
const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('the mail queue tells bulk mail to give way', () => {
  it('from before the message is prepared until its attempt ends', async () => {
    await queue.addPrepared(async () => {
      told.push('preparing');
      return mail;
    });
    await until(() => told.includes('settled 1000'));
    expect(told).toEqual(['queued', 'preparing', 'delivering', 'settled 1000']);
    expect(delivered.map((message) => message.mail.to)).toEqual([mail.to]);
  });

  it('ends at once when the preparation makes no message, or fails', async () => {
    await queue.addPrepared(async () => null);
    await expect(
      queue.addPrepared(async () => {
        throw new Error('The store could not be written');
      }),
    ).rejects.toThrow('The store could not be written');
    expect(told).toEqual(['queued', 'settled 1000', 'queued', 'settled 2000']);
    expect(delivered).toEqual([]);
  });

  it('for a message ready to send, from its write to the queue', async () => {
    await queue.add(mail);
    await until(() => told.includes('settled 1000'));
    expect(told).toEqual(['queued', 'delivering', 'settled 1000']);
  });

  it('once per message, however many attempts it takes', async () => {
    refusals = 2;
    await queue.add(mail);
    await until(() => delivered.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(told).toEqual(['queued', 'delivering', 'settled 1000', 'delivering', 'delivering']);
  });
});
