/**
 * The durable mail queue (docs/mail.md). Seams: the folders (mail-queue-files.ts), the delivery
 * (mail-delivery.ts: SMTP or the outbox), the console's view (mail-queue-status.ts), and the
 * identity (the console's From and DKIM key, read at each message; features/mail/identity/).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { isProcessAlive } from '../lib/process-alive';
import type { DkimSigning, MailDelivery } from './mail-delivery';
import { plainMailError } from './mail-errors';
import { type MailContent, MailQueueFiles, type QueuedMail } from './mail-queue-files';
import { type QueueStatus, queueStatus } from './mail-queue-status';
import type { SendingWatcher } from './mailer';

/** Pauses after the 1st, 2nd, ... failed attempt; the last one repeats until the message expires. */
export const RETRY_DELAYS_MS = [10_000, 30_000, 60_000, 2 * 60_000, 5 * 60_000] as const;
/** A message that says nothing about its own life is given three days. */
export const DEFAULT_MAIL_LIFE_MS = 3 * 24 * 60 * 60 * 1000;
/** Even with nothing due, the queue looks again this often (claims of a process that died). */
const IDLE_CHECK_MS = 10_000;
/** On shutdown, a send in progress gets this long to finish: a restart must not wait on a slow mail server. */
const FINISH_WAIT_MS = 1_000;
const RECEIPT_LIFE_MS = 2 * 24 * 60 * 60 * 1000;
/** Old receipts are looked for this often, not before every message: reading them all took longer the more mail went out. */
const RECEIPT_SWEEP_MS = 60_000;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Only a test of bulk mail sent to the owner carries these (see MailContent). */
  list?: MailContent['list'];
  headers?: MailContent['headers'];
  /** When the message stops being worth sending (a reset link's expiry). */
  expiresAt?: Date;
  /** The name shown beside the sender's address (the site's name): `"Name" <MAIL_FROM>`. */
  fromName?: string;
}

/** `"Name" <address>`, the name quoted so that no character of it can make another header or address. */
export function fromHeader(address: string, name?: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: line breaks and control characters are what is removed
  const clean = name?.replace(/[\x00-\x1f\x7f]/g, ' ').trim();
  return clean ? `"${clean.replace(/["\\]/g, (c) => `\\${c}`)}" <${address}>` : address;
}

/** Who mail is from and how it is signed, as the console set them (read at each message). */
export interface MailIdentity {
  from: string;
  dkim?: DkimSigning;
}

export interface MailQueueOptions {
  root: string;
  from: string;
  /** The console's From and DKIM key, when set (features/mail/identity/); else `from`, unsigned. */
  identity?: () => Promise<MailIdentity | null>;
  delivery: MailDelivery;
  log: FastifyBaseLogger;
  retryDelaysMs?: readonly number[];
}

/**
 * The durable mail queue. `add` resolves once the message is whole on the disk; a worker in each
 * server process then sends due messages one at a time, retrying with backoff until each
 * message's life ends. Claims are renames (see MailQueueFiles), so a message is sent by one
 * process only, and the claim of a process that died (kill -9) goes back to the queue.
 */
export class MailQueue {
  private readonly files: MailQueueFiles;
  private readonly delays: readonly number[];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private receiptsSweptAt = 0;
  /** A problem that left nothing on disk to show it (the queue itself could not be written). */
  private lastProblem: { message: string; at: string } | null = null;

  constructor(private readonly options: MailQueueOptions) {
    this.identity = options.identity;
    this.files = new MailQueueFiles(options.root);
    this.delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  }

  get kind(): 'smtp' | 'outbox' {
    return this.options.delivery.kind;
  }

  async start(): Promise<void> {
    await this.files.prepare();
    this.kick();
  }

  /** Set once the feature that keeps the console's From and key is built. */
  identity: MailQueueOptions['identity'];
  /** Set once mail to members is built (it gives way while a message here is on its way). */
  watcher: SendingWatcher | undefined;
  /** What the watcher answered for each message this process queued, until its first attempt ends. */
  private readonly holds = new Map<string, number | null>();

  async add(mail: OutgoingMail): Promise<void> {
    return this.addPrepared(async () => mail);
  }

  /**
   * Queues the message `prepare` makes, or nothing when it answers null. Bulk mail gives way from
   * before `prepare` starts: the message's own writes (a reset's token, the queue's file) are
   * part of its wait, and a bulk send's writes would share the disk with them.
   */
  async addPrepared(prepare: () => Promise<OutgoingMail | null>): Promise<void> {
    const heldUntil = await this.tellQueued();
    try {
      const mail = await prepare();
      if (!mail) return await this.tellSettled(heldUntil);
      this.holds.set(await this.write(mail), heldUntil);
    } catch (error) {
      await this.tellSettled(heldUntil);
      throw error;
    }
    this.kick();
  }

  /** Writes the message into the queue; answers its id. */
  private async write(mail: OutgoingMail): Promise<string> {
    const from = (await this.readIdentity())?.from ?? this.options.from;
    const now = new Date();
    const id = `${now.getTime().toString(36)}-${randomBytes(6).toString('hex')}`;
    const message: QueuedMail = {
      id,
      messageId: `<${id}@${from.split('@')[1] ?? 'localhost'}>`,
      mail: {
        from: fromHeader(from, mail.fromName),
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.list ? { list: mail.list } : {}),
        ...(mail.headers ? { headers: mail.headers } : {}),
      },
      createdAt: now.toISOString(),
      expiresAt: (mail.expiresAt ?? new Date(now.getTime() + DEFAULT_MAIL_LIFE_MS)).toISOString(),
      attempts: 0,
      nextAttemptAt: now.toISOString(),
    };
    try {
      await this.files.prepare();
      await this.files.add(message);
    } catch (error) {
      const problem = plainMailError(error, `the mail queue (${this.options.root})`);
      this.lastProblem = { message: problem, at: new Date().toISOString() };
      throw new Error(problem, { cause: error });
    }
    return id;
  }

  /** The console's identity; a store that cannot be read leaves the mail as configured, never unsent. */
  private async readIdentity(): Promise<MailIdentity | null> {
    const read = this.identity ?? this.options.identity;
    if (!read) return null;
    try {
      return await read();
    } catch (error) {
      this.options.log.warn(
        { err: error },
        'The mail identity could not be read: sending as MAIL_FROM, unsigned',
      );
      return null;
    }
  }

  /** Sends a waiting message at once; false when it is not waiting (any more). */
  async retryNow(id: string): Promise<boolean> {
    const message = (await this.files.list('waiting')).find((candidate) => candidate.id === id);
    if (!message) return false;
    if (!(await this.files.update({ ...message, nextAttemptAt: new Date().toISOString() }))) return false;
    this.kick();
    return true;
  }

  /** The console's view of the queue (see queueStatus): never a message's text or link. */
  async status(): Promise<QueueStatus> {
    return queueStatus(this.files, this.kind, this.lastProblem);
  }

  /** Stops the worker; a send in progress may finish (briefly), else its claim is left for the next process. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.running) {
      await Promise.race([
        this.running,
        new Promise((resolve) => setTimeout(resolve, FINISH_WAIT_MS).unref()),
      ]);
    }
    this.options.delivery.close();
  }

  /** Runs the worker now, or once more right after the current run. */
  private kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.work()
      .catch((error) => this.options.log.error({ err: error }, 'The mail queue could not be worked through'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async work(): Promise<void> {
    await this.recoverAbandonedClaims();
    let next = Date.now() + IDLE_CHECK_MS;
    const waiting = (await this.files.list('waiting')).sort((a, b) =>
      a.nextAttemptAt.localeCompare(b.nextAttemptAt),
    );
    for (const message of waiting) {
      if (this.closed) return;
      const now = Date.now();
      if (Date.parse(message.expiresAt) <= now) {
        await this.expire(message, 'waiting');
        if (this.holds.has(message.id)) await this.settle(message);
        continue;
      }
      const due = Date.parse(message.nextAttemptAt);
      if (due > now) {
        next = Math.min(next, due);
        continue;
      }
      if (!(await this.files.claim(message.id))) continue; // another process took it
      const retryAt = await this.attempt(message).finally(() => this.settle(message));
      if (retryAt !== null) next = Math.min(next, retryAt);
    }
    if (!this.closed) {
      this.timer = setTimeout(() => this.kick(), Math.max(0, next - Date.now()));
      this.timer.unref();
    }
  }

  /** Tells the watcher (bulk mail) a message is on its way; its problem never stops the queue. */
  private async tellQueued(): Promise<number | null> {
    try {
      return (await this.watcher?.queued()) ?? null;
    } catch (error) {
      this.options.log.warn({ err: error }, 'Bulk mail not told to give way');
      return null;
    }
  }

  private async tellSettled(heldUntil: number | null): Promise<void> {
    try {
      await this.watcher?.settled(heldUntil);
    } catch (error) {
      this.options.log.warn({ err: error }, 'Bulk mail not told it may go on');
    }
  }

  /**
   * The end of a message's first attempt ends its hold on bulk mail, whichever process makes it;
   * a retry took none, and ending one again would take away another message's hold.
   */
  private async settle(message: QueuedMail): Promise<void> {
    if (message.attempts > 0) return;
    const heldUntil = this.holds.get(message.id) ?? null;
    this.holds.delete(message.id);
    await this.tellSettled(heldUntil);
  }

  /** One delivery attempt of a claimed message; answers when to try again, or null when done. */
  private async attempt(message: QueuedMail): Promise<number | null> {
    const attemptedAt = new Date();
    try {
      await this.options.delivery.deliver(message, (await this.readIdentity())?.dkim);
      await this.files.markSent(message, new Date());
      this.options.log.info(
        { mailId: message.id, attempts: message.attempts + 1 },
        `Mail sent: ${message.mail.subject}`,
      );
      return null;
    } catch (error) {
      const lastError = plainMailError(error, this.options.delivery.where);
      const attempts = message.attempts + 1;
      const delay = this.delays[Math.min(attempts - 1, this.delays.length - 1)] ?? 60_000;
      const retryAt = attemptedAt.getTime() + delay;
      const updated: QueuedMail = {
        ...message,
        attempts,
        lastError,
        lastAttemptAt: attemptedAt.toISOString(),
        nextAttemptAt: new Date(retryAt).toISOString(),
      };
      if (retryAt >= Date.parse(message.expiresAt)) {
        await this.expire(updated, 'sending');
        return null;
      }
      await this.files.release(updated);
      this.options.log.warn(
        { mailId: message.id, attempts, retryAt: updated.nextAttemptAt },
        `Mail not sent yet, will retry: ${lastError}`,
      );
      return retryAt;
    }
  }

  private async expire(message: QueuedMail, from: 'waiting' | 'sending'): Promise<void> {
    const failed: QueuedMail = {
      ...message,
      lastError: `Not delivered before it expired${message.lastError ? `. Last problem: ${message.lastError}` : '.'}`,
      lastAttemptAt: message.lastAttemptAt ?? new Date().toISOString(),
    };
    await this.files.markFailed(failed, from);
    this.options.log.error(
      { mailId: message.id, attempts: message.attempts },
      `Mail failed for good: ${failed.lastError}`,
    );
  }

  /** Claims left by a process that is gone (kill -9, a crash) go back to the queue; old receipts go. */
  private async recoverAbandonedClaims(): Promise<void> {
    for (const claim of await this.files.claims()) {
      if (claim.pid === process.pid || isProcessAlive(claim.pid)) continue;
      await this.files.reclaim(claim.name, claim.id);
      this.options.log.warn(
        { mailId: claim.id },
        'A mail left half-sent by a stopped server process waits again',
      );
    }
    if (Date.now() - this.receiptsSweptAt < RECEIPT_SWEEP_MS) return;
    this.receiptsSweptAt = Date.now();
    const old = Date.now() - RECEIPT_LIFE_MS;
    for (const receipt of await this.files.receipts()) {
      if (Date.parse(receipt.sentAt) < old) await this.files.dropReceipt(receipt.id);
    }
  }
}
