import type { FastifyBaseLogger } from 'fastify';
import { plainMailError } from '../../../mail/mail-errors';
import type { MailContent } from '../../../mail/mail-queue-files';
import type { MailDelivery, MailIdentity } from '../../../mail/mailer';
import { type AnnouncementsRepository, recordId } from '../announcements/announcements.repository';
import type { Recipient } from '../announcements/segments';
import type { PreferencesRepository } from '../preferences/preferences.repository';
import type { SharedPace } from './pace';

/** After this many passing problems, a recipient's message counts as failed. */
export const MAX_ATTEMPTS = 5;

export interface SendOneDeps {
  announcements: AnnouncementsRepository;
  preferences: PreferencesRepository;
  delivery: () => MailDelivery;
  /** The console's From and DKIM key (identity/identity.service.ts). */
  identity: () => Promise<MailIdentity>;
  log: FastifyBaseLogger;
  /** Its record waits while a transactional message is on its way (bulk/pace.ts). */
  pace: Pick<SharedPace, 'giveWay'>;
}

/**
 * One bulk message to one member, its record written before (`sending`, by the caller) and after.
 * `run` names what it belongs to (an announcement's id, a digest's day). The Message-ID is made
 * from the run and the member, so a copy sent again after a crash carries the same one. A 5xx
 * from the mail server is a hard bounce: bulk mail to that address stops, with the server's words.
 * Answers 'retry' on a passing problem (the server unreachable, a 4xx).
 */
export async function sendOne(
  deps: SendOneDeps,
  run: { id: string; createdAt: Date },
  recipient: Recipient,
  mail: MailContent,
  attempts: number,
): Promise<'sent' | 'failed' | 'retry'> {
  const { announcements, preferences } = deps;
  const id = recordId(run.id, recipient.userId);
  const transport = deps.delivery();
  try {
    const { from, dkim } = await deps.identity();
    await transport.deliver(
      {
        id,
        messageId: `<${id}@${from.split('@')[1] ?? 'localhost'}>`,
        createdAt: run.createdAt.toISOString(),
        mail,
      },
      dkim,
    );
    await deps.pace.giveWay();
    await announcements.record(run.id, recipient, 'sent', { attempts });
    return 'sent';
  } catch (error) {
    const problem = plainMailError(error, transport.where);
    const code = (error as { responseCode?: number }).responseCode ?? 0;
    if (code >= 500) {
      await announcements.record(run.id, recipient, 'failed', { attempts, error: problem });
      await preferences.save(recipient.userId, {
        stopReason: 'bounce',
        stopDetail: problem,
        stopAt: new Date(),
        stopEmail: recipient.email,
      });
      return 'failed';
    }
    const final = attempts >= MAX_ATTEMPTS;
    await announcements.record(run.id, recipient, final ? 'failed' : 'retry', { attempts, error: problem });
    deps.log.warn({ run: run.id, attempts }, `Mail to a member not sent yet: ${problem}`);
    return final ? 'failed' : 'retry';
  }
}

/** The log line of a copy that may be a second one (the process died between the server's OK and the record). */
export function warnRepeat(log: FastifyBaseLogger, run: string, recipient: Recipient): void {
  log.warn(
    { run, userId: recipient.userId, email: recipient.email },
    'Sending again to a member whose copy may have gone already: the process sending it stopped between the mail server taking it and noting it (same Message-ID)',
  );
}
