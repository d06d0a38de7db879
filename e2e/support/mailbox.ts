import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { E2E_MAIL_DIR } from './env';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Waits for this worker's test SMTP server to have received a message for `to`. */
export async function waitForMail(to: string, timeoutMs = 10_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // A message being filed is a `.part` file until it is whole (site.ts).
    const files = (await readdir(E2E_MAIL_DIR))
      .filter((file) => file.endsWith('.json'))
      .sort()
      .reverse();
    for (const file of files) {
      const mail = JSON.parse(await readFile(path.join(E2E_MAIL_DIR, file), 'utf8')) as ReceivedMail;
      if (mail.to?.toLowerCase().includes(to.toLowerCase())) return mail;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No mail for ${to} arrived within ${timeoutMs} ms`);
}
