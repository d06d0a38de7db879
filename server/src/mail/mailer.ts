import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { type MailDelivery, outboxDelivery, smtpDelivery } from './mail-delivery';
import { type MailIdentity, MailQueue, type OutgoingMail } from './mail-queue';
import type { QueueStatus } from './mail-queue-status';

export type Mail = OutgoingMail;
export type { MailDelivery } from './mail-delivery';
export type { MailIdentity } from './mail-queue';
export type MailStatus = QueueStatus;

/**
 * The mailer port every feature sends through. `send` resolves once the message is safely in the
 * queue on disk (DATA_DIR/mail); delivery happens after, by SMTP when SMTP_URL is set, else as an
 * `.eml` file in DATA_DIR/outbox, with retries (see mail-queue.ts).
 */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  /**
   * `send` for a message whose making writes too (a reset link's token): bulk mail gives way from
   * before `prepare` starts. Nothing is sent when it answers null.
   */
  sendPrepared(prepare: () => Promise<Mail | null>): Promise<void>;
  readonly kind: 'smtp' | 'outbox';
  /** What the console shows: counts, the last error in plain words, the messages (never their text). */
  status(): Promise<MailStatus>;
  /** Sends a waiting message now instead of at its next retry; false when it no longer waits. */
  retryNow(id: string): Promise<boolean>;
  /** Where every message's From and DKIM key come from (the console's); MAIL_FROM, unsigned, until set. */
  signWith(identity: () => Promise<MailIdentity | null>): void;
  /** Told when a message is queued and when its attempt ends, so bulk mail can give way (features/mail/bulk/pace.ts). */
  watchSending(watcher: SendingWatcher): void;
  close(): Promise<void>;
}

/**
 * Told when a message is on its way (from before it is made) and when an attempt to send it ends
 * (sent, failed, or to be retried): bulk mail gives way meanwhile, so that a reset mail never
 * waits behind it. A watcher's problem is logged and leaves the mail as it is.
 */
export interface SendingWatcher {
  /** Answers when the hold it took lapses by itself (ms since the epoch), handed back to `settled`. */
  queued(): Promise<number | null>;
  /** `heldUntil`: what `queued` answered, null when this process did not tell it (another one queued the message). */
  settled(heldUntil: number | null): Promise<void>;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
  /** Tests shorten the retry schedule; the product uses RETRY_DELAYS_MS. */
  retryDelaysMs?: readonly number[];
}

/**
 * The delivery of bulk mail (mail to members): its own transport beside the queue's, with
 * `connections` open at once, so a reset mail never waits behind a bulk send. Bulk mail is not
 * kept in the queue's files: its recipients are read from the store as it goes (features/mail/bulk/).
 */
export function createBulkDelivery(
  options: Pick<MailerOptions, 'smtpUrl' | 'dataDir' | 'log'>,
  connections: number,
): MailDelivery {
  return options.smtpUrl
    ? smtpDelivery(options.smtpUrl, connections)
    : outboxDelivery(options.dataDir, options.log);
}

/** The queue folder: files, not the store, so that mail survives a move of the database. */
export const mailQueueFolder = (dataDir: string) => path.join(dataDir, 'mail');

export async function createMailer(options: MailerOptions): Promise<Mailer> {
  const delivery: MailDelivery = options.smtpUrl
    ? smtpDelivery(options.smtpUrl)
    : outboxDelivery(options.dataDir, options.log);
  const queue = new MailQueue({
    root: mailQueueFolder(options.dataDir),
    from: options.from,
    delivery,
    log: options.log,
    retryDelaysMs: options.retryDelaysMs,
  });
  await queue.start();
  return {
    kind: delivery.kind,
    send: (mail) => queue.add(mail),
    sendPrepared: (prepare) => queue.addPrepared(prepare),
    status: () => queue.status(),
    retryNow: (id) => queue.retryNow(id),
    signWith: (identity) => {
      queue.identity = identity;
    },
    watchSending: (watcher) => {
      queue.watcher = watcher;
    },
    close: () => queue.close(),
  };
}
