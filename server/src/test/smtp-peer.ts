import { createServer, type Socket } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  messageId: string;
  html: string;
  /** Every header, names lower-cased, values as sent (folded lines joined). */
  headers: Map<string, string>;
}

/** A real SMTP server (the `smtp-server` package) on 127.0.0.1 that keeps what it receives. */
export async function startSmtpPeer(
  port = 0,
  /** Recipients the peer refuses with a 550 (a hard bounce). */
  refuse: (to: string) => boolean = () => false,
): Promise<{
  port: number;
  received: ReceivedMail[];
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}> {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse(address.address)) {
        const error = Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = Array.isArray(mail.to) ? (mail.to[0]?.text ?? '') : (mail.to?.text ?? '');
          received.push({
            to,
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            messageId: mail.messageId ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            headers: new Map(
              mail.headerLines.map((line) => [
                line.key,
                line.line.replace(/^[^:]+:\s*/, '').replace(/\r?\n\s+/g, ' '),
              ]),
            ),
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(port, '127.0.0.1', resolve);
  });
  return {
    port: (smtp.server.address() as { port: number }).port,
    received,
    async waitFor(to, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.find((candidate) => candidate.to.includes(to));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`No mail for ${to} arrived within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** A "mail server" that accepts connections and never says a word (a hung SMTP server). */
export async function startSilentPeer(port = 0): Promise<{
  port: number;
  connections: () => number;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
