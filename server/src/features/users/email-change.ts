import type { CancelledEmailChange, EmailChangeCancelReason } from '@common/schemas/account';
import type { DocChanges } from '../../store/store';
import type { UserDoc } from './users.repository';

/** How long /account keeps telling the member that their recovery cancelled a change. */
const NOTICE_MS = 30 * 24 * 60 * 60 * 1000;

/** The address a change waits to move the account to, while its link still works. */
export const pendingEmail = (user: UserDoc): string | null =>
  user.emailChangeTo && user.emailChangeExpiresAt && user.emailChangeExpiresAt.getTime() > Date.now()
    ? user.emailChangeTo
    : null;

/** Fields that end a pending change: its link stops working. */
export const NO_EMAIL_CHANGE: DocChanges<UserDoc> = {
  emailChangeTo: undefined,
  emailChangeTokenHash: undefined,
  emailChangeExpiresAt: undefined,
};

/** Fields that forget an earlier cancellation (a new request, a confirmed address). */
export const NO_CANCEL_NOTICE: DocChanges<UserDoc> = {
  emailChangeCancelledTo: undefined,
  emailChangeCancelledBecause: undefined,
  emailChangeCancelledAt: undefined,
};

/**
 * The fields a password change, a reset or Sign out everywhere writes: whoever asked for the
 * pending change may be the intruder this recovery shuts out, so the link must stop working.
 * A change still pending is noted, so that /account can tell the member it was cancelled.
 */
export function voidEmailChange(user: UserDoc, reason: EmailChangeCancelReason): DocChanges<UserDoc> {
  const pending = pendingEmail(user);
  if (!pending) return NO_EMAIL_CHANGE;
  return {
    ...NO_EMAIL_CHANGE,
    emailChangeCancelledTo: pending,
    emailChangeCancelledBecause: reason,
    emailChangeCancelledAt: new Date(),
  };
}

/** The cancellation /account tells of, for a month after it happened. */
export function cancelledEmailChange(user: UserDoc): CancelledEmailChange | null {
  const { emailChangeCancelledTo: email, emailChangeCancelledBecause: reason } = user;
  const at = user.emailChangeCancelledAt;
  if (!email || !reason || !at || at.getTime() + NOTICE_MS < Date.now()) return null;
  return { email, reason, at: at.toISOString() };
}
