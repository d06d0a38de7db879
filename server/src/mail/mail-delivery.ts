import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import { ensurePrivateFolder, writeFileDurably } from '../lib/durable-file';
import type { QueuedMail } from './mail-queue-files';

/**
 * Short limits so that a mail server that is down or silent costs seconds, not nodemailer's
 * defaults (2 minutes to connect, 30 s for the greeting, 10 minutes of silence).
 */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 5_000,
  greetingTimeout: 5_000,
  socketTimeout: 15_000,
  dnsTimeout: 5_000,
} as const;

/** nodemailer's DKIM options: the message is signed as it leaves. */
export interface DkimSigning {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/** What a delivery needs of a message: the queue's, or one of mail to members (never queued in files). */
export type DeliverableMail = Pick<QueuedMail, 'id' | 'messageId' | 'mail' | 'createdAt'>;

/** Hands one queued message onward: to the SMTP server, or as an `.eml` file into the outbox. */
export interface MailDelivery {
  readonly kind: 'smtp' | 'outbox';
  /** Where mail goes, for messages to the owner (host:port, or the outbox folder). */
  readonly where: string;
  /** `dkim`: the console's signing key, when one is made (the From's domain, the selector, the key). */
  deliver(message: DeliverableMail, dkim?: DkimSigning): Promise<void>;
  close(): void;
}

/**
 * nodemailer is loaded with the first message, not at start: most server processes send no mail
 * at all, and loading it cost each about 35 ms of start-up and 4 MB of memory.
 */
function lazyTransport(options: Parameters<typeof import('nodemailer').createTransport>[0]) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => {
      transport ??= import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport(options),
      );
      return transport;
    },
    close: () => void transport?.then((made) => made.close()),
  };
}

/**
 * By SMTP. `connections` > 1 keeps a pool of that many open connections (bulk mail to members);
 * the transactional queue keeps its own transport, so a reset mail never waits behind bulk mail.
 */
export function smtpDelivery(smtpUrl: string, connections = 1): MailDelivery {
  const transport = lazyTransport(
    connections > 1
      ? { url: smtpUrl, pool: true, maxConnections: connections, maxMessages: 1000, ...SMTP_TIMEOUTS }
      : { url: smtpUrl, ...SMTP_TIMEOUTS },
  );
  const url = new URL(smtpUrl);
  return {
    kind: 'smtp',
    where: `at ${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`,
    async deliver(message, dkim) {
      await (await transport.get()).sendMail({
        ...message.mail,
        messageId: message.messageId,
        ...(dkim ? { dkim } : {}),
      });
    },
    close: transport.close,
  };
}

/**
 * Without SMTP_URL: the complete RFC 822 message, exactly what SMTP would have carried, as a file
 * any mail program opens. The log names the file, never the link inside it.
 */
export function outboxDelivery(dataDir: string, log: FastifyBaseLogger): MailDelivery {
  const render = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const outbox = path.join(dataDir, 'outbox');
  return {
    kind: 'outbox',
    where: `in ${outbox}`,
    async deliver(message, dkim) {
      const info = await (await render.get()).sendMail({
        ...message.mail,
        messageId: message.messageId,
        ...(dkim ? { dkim } : {}),
      });
      await ensurePrivateFolder(outbox);
      // Named by the queued message: a second delivery of the same message replaces the file.
      const file = path.join(outbox, `${message.createdAt.replace(/[:.]/g, '-')}-${message.id}.eml`);
      await writeFileDurably(file, info.message as Buffer);
      log.info({ file }, `Mail written to the outbox (no SMTP_URL): ${message.mail.subject}`);
    },
    close: () => undefined,
  };
}
