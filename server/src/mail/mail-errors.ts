/**
 * What went wrong with a mail, in words an owner can act on. Never includes the message itself,
 * so no reset link can reach the console or a log line through an error.
 */
export function plainMailError(error: unknown, where: string): string {
  const e = error as NodeJS.ErrnoException & { responseCode?: number; response?: string };
  // nodemailer wraps socket errors (code ESOCKET, ECONNECTION): the cause is named in the message.
  const wrapped = /\b(ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH)\b/.exec(
    e?.message ?? '',
  );
  const code = wrapped?.[1] ?? e?.code ?? '';
  switch (code) {
    case 'ECONNREFUSED':
      return `The mail server ${where} refused the connection (is it running?).`;
    case 'ETIMEDOUT':
    case 'CONNECT_TIMEOUT':
    case 'GREETING_TIMEOUT':
    case 'SOCKET_TIMEOUT':
      return `The mail server ${where} did not answer in time.`;
    case 'ENOTFOUND':
    case 'EDNS':
    case 'EAI_AGAIN':
      return `The mail server's name in SMTP_URL (${where}) could not be found.`;
    case 'EHOSTUNREACH':
      return `The mail server ${where} cannot be reached from this machine.`;
    case 'ECONNRESET':
    case 'ECONNECTION':
      return `The connection to the mail server ${where} was cut.`;
    case 'EAUTH':
      return `The mail server ${where} refused the user name or password in SMTP_URL.`;
    case 'ETLS':
      return `The mail server ${where} could not agree on a secure connection (TLS).`;
    case 'ENOSPC':
      return `The disk is full: the mail could not be written to ${where}. Free some space.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied writing to ${where}.`;
    case 'EROFS':
      return `${where} is on a read-only file system.`;
  }
  if (typeof e?.responseCode === 'number') {
    return `The mail server ${where} refused the message (${e.responseCode}${e.response ? `: ${firstLine(e.response)}` : ''}).`;
  }
  return `The mail could not be sent ${where}: ${firstLine(e?.message ?? String(error))}`;
}

const firstLine = (text: string) => text.split('\n')[0]!.slice(0, 200);
