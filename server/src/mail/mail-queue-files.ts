import { readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { ensurePrivateFolder, syncFolder, writeFileDurably } from '../lib/durable-file';

/** One message of the queue, as kept on disk (DATA_DIR/mail/<state>/<id>.json). */
export interface QueuedMail {
  id: string;
  /** The same Message-ID on every attempt, so a receiving server can tell a repeat. */
  messageId: string;
  mail: MailContent;
  createdAt: string;
  /** After this the message is worthless (a reset link's hour): it is marked failed, not sent. */
  expiresAt: string;
  attempts: number;
  nextAttemptAt: string;
  lastError?: string;
  lastAttemptAt?: string;
}

/** A message as nodemailer takes it; `list` and `headers` only on bulk mail (mail to members). */
export interface MailContent {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** nodemailer's List-* headers: List-Unsubscribe and List-Id. */
  list?: { unsubscribe?: { url: string; comment?: string }; id?: { url: string; comment?: string } };
  headers?: Record<string, string>;
}

/** What is left once a message went out: enough to count it, nothing of its contents. */
export interface SentReceipt {
  id: string;
  sentAt: string;
}

const STATES = ['waiting', 'sending', 'failed', 'sent'] as const;
type State = (typeof STATES)[number];

/**
 * The queue's folders. A message lives in exactly one of them; moving it is a rename, which is
 * atomic, so two server processes (the old and the new one during a console restart) can never
 * both claim it: the second rename finds nothing.
 *
 * - waiting/<id>.json: to be sent at `nextAttemptAt`
 * - sending/<id>@<pid>.json: claimed by the process `pid`, being sent right now
 * - failed/<id>.json: its life ended before it could be delivered (kept for the owner to see)
 * - sent/<id>.json: a receipt without the message, for the "sent today" count
 */
export class MailQueueFiles {
  constructor(readonly root: string) {}

  private file(state: State, name: string): string {
    return path.join(this.root, state, name);
  }

  async prepare(): Promise<void> {
    await ensurePrivateFolder(this.root);
    for (const state of STATES) await ensurePrivateFolder(path.join(this.root, state));
  }

  /** Resolves once the message is whole on the disk. */
  async add(message: QueuedMail): Promise<void> {
    await writeFileDurably(this.file('waiting', `${message.id}.json`), JSON.stringify(message));
  }

  async list(state: 'waiting' | 'failed'): Promise<QueuedMail[]> {
    const names = await this.names(state);
    const read = await Promise.all(names.map((name) => this.read(this.file(state, name))));
    return read.filter((message): message is QueuedMail => message !== null);
  }

  /** Claims of every process: which message, held by which pid. */
  async claims(): Promise<Array<{ id: string; pid: number; name: string }>> {
    return (await this.names('sending')).flatMap((name) => {
      const match = /^([\w-]+)@(\d+)\.json$/.exec(name);
      return match ? [{ id: match[1]!, pid: Number(match[2]), name }] : [];
    });
  }

  async readClaim(name: string): Promise<QueuedMail | null> {
    return this.read(this.file('sending', name));
  }

  /** Takes a waiting message for this process; false when another process was first. */
  async claim(id: string): Promise<boolean> {
    try {
      await rename(this.file('waiting', `${id}.json`), this.file('sending', `${id}@${process.pid}.json`));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /** Puts back the claim of a process that died while sending. */
  async reclaim(name: string, id: string): Promise<void> {
    await rename(this.file('sending', name), this.file('waiting', `${id}.json`)).catch(ignoreMissing);
  }

  /** After a failed attempt: the updated message waits again, then the claim goes. */
  async release(message: QueuedMail): Promise<void> {
    await writeFileDurably(this.file('waiting', `${message.id}.json`), JSON.stringify(message));
    await rm(this.file('sending', `${message.id}@${process.pid}.json`), { force: true });
  }

  async markSent(message: QueuedMail, sentAt: Date): Promise<void> {
    const receipt: SentReceipt = { id: message.id, sentAt: sentAt.toISOString() };
    await writeFileDurably(this.file('sent', `${message.id}.json`), JSON.stringify(receipt));
    await rm(this.file('sending', `${message.id}@${process.pid}.json`), { force: true });
    await syncFolder(path.join(this.root, 'sending'));
  }

  /** Moves a message (waiting, or claimed by this process) to failed/, with its last error. */
  async markFailed(message: QueuedMail, from: 'waiting' | 'sending'): Promise<void> {
    await writeFileDurably(this.file('failed', `${message.id}.json`), JSON.stringify(message));
    const name = from === 'sending' ? `${message.id}@${process.pid}.json` : `${message.id}.json`;
    await rm(this.file(from, name), { force: true });
  }

  /** Rewrites a waiting message (e.g. "retry now"); false when it no longer waits. */
  async update(message: QueuedMail): Promise<boolean> {
    const file = this.file('waiting', `${message.id}.json`);
    if ((await this.read(file)) === null) return false;
    await writeFileDurably(file, JSON.stringify(message));
    return true;
  }

  async receipts(): Promise<SentReceipt[]> {
    const names = await this.names('sent');
    const read = await Promise.all(names.map((name) => this.read<SentReceipt>(this.file('sent', name))));
    return read.filter((receipt): receipt is SentReceipt => receipt !== null);
  }

  async dropReceipt(id: string): Promise<void> {
    await rm(this.file('sent', `${id}.json`), { force: true });
  }

  private async names(state: State): Promise<string[]> {
    const names = await readdir(path.join(this.root, state)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    // Temp files of a write in progress start with a dot.
    return names.filter((name) => name.endsWith('.json') && !name.startsWith('.'));
  }

  private async read<T = QueuedMail>(file: string): Promise<T | null> {
    try {
      return JSON.parse(await readFile(file, 'utf8')) as T;
    } catch (error) {
      // Gone meanwhile (another process moved it): not ours to handle. Unreadable: skipped, so
      // that one damaged file cannot hold up the rest of the queue.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return null;
      throw error;
    }
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}
