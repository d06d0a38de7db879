import { formatDay } from '@common/dates';
import { escapeHtml } from '../../lib/escape-html';
import type { Mail } from '../../mail/mailer';
import { fromSite } from '../../mail/site-mail';

/** To each active administrator: a member's payment failed. Names the member, never a card or a key. */
export function paymentFailedMail(
  to: string,
  member: { name: string; email: string },
  failure: { nextAttemptAt?: Date | null; attemptCount?: number },
  consoleUrl: string,
  siteName: string,
): Mail {
  const attempt =
    failure.attemptCount && failure.attemptCount > 1 ? ` (attempt ${failure.attemptCount})` : '';
  const next = failure.nextAttemptAt
    ? `Stripe will try again on ${formatDay(failure.nextAttemptAt)}. Their paid access continues meanwhile; Stripe asks them to update their card.`
    : 'Stripe will not try again: their paid membership ends unless they pay the invoice or update their card.';
  const paragraphs = [
    `The payment of ${member.name} (${member.email}) for their paid membership failed${attempt}.`,
    next,
    `They are listed on the console's Dashboard under Payments, and in User Management with the filter "Payment failing": ${consoleUrl}`,
  ];
  return fromSite(siteName, {
    to,
    subject: "a member's payment failed",
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n'),
  });
}
