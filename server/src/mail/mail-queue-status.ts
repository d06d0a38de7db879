import type { MailQueueMessage } from '@common/schemas/mail';
import type { MailQueueFiles, QueuedMail } from './mail-queue-files';

export interface QueueStatus {
  mode: 'smtp' | 'outbox';
  sentToday: number;
  waiting: number;
  failed: number;
  lastError: { message: string; at: string } | null;
  /** As the console sees them: never a message's text or link. */
  messages: MailQueueMessage[];
}

/**
 * What the console's Outgoing mail card shows of the queue: counts, the last problem and the 50
 * newest messages, read from the queue's folders. It is read, never kept: every process sees the
 * same folders.
 */
export async function queueStatus(
  files: MailQueueFiles,
  mode: QueueStatus['mode'],
  lastProblem: { message: string; at: string } | null,
): Promise<QueueStatus> {
  const [waitingAll, failedAll, claims, receipts] = await Promise.all([
    files.list('waiting'),
    files.list('failed'),
    files.claims(),
    files.receipts(),
  ]);
  // A message moving between folders may be seen in two of them for a moment: the later
  // state wins (sent, then failed, then waiting, then sending).
  const seen = new Set(receipts.map((receipt) => receipt.id));
  const unseen = <T extends { id: string }>(list: T[]) =>
    list.filter((item) => {
      if (seen.has(item.id)) return false;
      seen.add(item.id);
      return true;
    });
  const failed = unseen(failedAll);
  const waiting = unseen(waitingAll);
  const sending = unseen(
    (await Promise.all(claims.map((claim) => files.readClaim(claim.name)))).filter(
      (message): message is QueuedMail => message !== null,
    ),
  );
  const startOfDay = new Date();
  startOfDay.setHours(0, 0, 0, 0);
  const view = (message: QueuedMail, state: MailQueueMessage['state']): MailQueueMessage => ({
    id: message.id,
    to: message.mail.to,
    subject: message.mail.subject,
    state,
    attempts: message.attempts,
    createdAt: message.createdAt,
    nextAttemptAt: state === 'waiting' ? message.nextAttemptAt : null,
    expiresAt: message.expiresAt,
    lastError: message.lastError ?? null,
  });
  const messages = [
    ...sending.map((m) => view(m, 'sending')),
    ...waiting.map((m) => view(m, 'waiting')),
    ...failed.map((m) => view(m, 'failed')),
  ].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const errors = [...waiting, ...failed, ...sending]
    .filter((m) => m.lastError && m.lastAttemptAt)
    .map((m) => ({ message: m.lastError!, at: m.lastAttemptAt! }));
  if (lastProblem) errors.push(lastProblem);
  errors.sort((a, b) => b.at.localeCompare(a.at));
  return {
    mode,
    sentToday: receipts.filter((r) => new Date(r.sentAt) >= startOfDay).length,
    waiting: waiting.length + sending.length,
    failed: failed.length,
    lastError: errors[0] ?? null,
    messages: messages.slice(0, 50),
  };
}
