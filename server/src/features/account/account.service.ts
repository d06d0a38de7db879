import {
  type AccountData,
  type AccountExport,
  EMAIL_CHANGE_SENT,
  EMAIL_CHANGE_WITHDRAWN,
} from '@common/schemas/account';
import type { PublicUser } from '@common/schemas/user';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import { hashLinkToken, newLinkToken } from '../../lib/link-token';
import type { Mailer } from '../../mail/mailer';
import { type DocChanges, DuplicateKeyError } from '../../store/store';
import type { ActivityLog } from '../activity/activity.service';
import type { SessionsService } from '../sessions/sessions.service';
import type { AccountRemoval } from '../users/account-removal';
import {
  cancelledEmailChange,
  NO_CANCEL_NOTICE,
  NO_EMAIL_CHANGE,
  pendingEmail,
  voidEmailChange,
} from '../users/email-change';
import { hashPassword, verifyPassword } from '../users/passwords';
import { toPublicUser, type UserDoc, type UsersRepository } from '../users/users.repository';
import { accountExport } from './account-export';
import { confirmEmailMail, emailChangeNoticeMail, emailTakenMail } from './account-mail';

const EMAIL_LINK_TTL_MS = 24 * 60 * 60 * 1000;
const WRONG_PASSWORD = 'Current password is incorrect.';
const INVALID_LINK = 'This confirmation link is invalid or has expired.';
const ADDRESS_TAKEN = 'This address already belongs to another account, so it cannot be used.';
const NOTHING_PENDING = 'No change of e-mail address is waiting for confirmation.';
const ADMIN_CANNOT_DELETE =
  'Administrators cannot delete their own account here. Another administrator can delete it in the console.';

export interface AccountDeps {
  users: UsersRepository;
  sessions: SessionsService;
  mailer: Mailer;
  /** The site's name (the console's Site section): the mails come from it and are signed with it. */
  siteName: () => Promise<string>;
  publicUrl: string;
  log: FastifyBaseLogger;
  activity: Pick<ActivityLog, 'aboutOwnAccount' | 'retentionDays'>;
  removal: AccountRemoval;
  /** The member's progress in the courses they started, for "Download my data". */
  courseProgress: (userId: string) => Promise<AccountExport['courseProgress']>;
}

/**
 * What members do to their own account. Every method takes the signed-in user as the routes'
 * guard found it: no caller can name another account.
 */
export class AccountService {
  constructor(private readonly deps: AccountDeps) {}

  async overview(user: UserDoc, sessionId: string): Promise<AccountData> {
    return {
      user: toPublicUser(user),
      pendingEmail: pendingEmail(user),
      cancelledEmailChange: cancelledEmailChange(user),
      sessions: await this.deps.sessions.list(user._id, sessionId),
      activityRetentionDays: this.deps.activity.retentionDays,
    };
  }

  async rename(user: UserDoc, name: string): Promise<PublicUser> {
    return toPublicUser(await this.save(user, { name }));
  }

  /**
   * Sends the confirmation link to the new address and a notice to the current one. The answer
   * and the work done are the same whether or not another account has the new address (that
   * address then gets a mail saying so, and no link), so nobody learns which addresses exist.
   */
  async requestEmailChange(user: UserDoc, email: string, password: string): Promise<string> {
    if (email === user.email) throw new AppError('VALIDATION', 'This is already your e-mail address.');
    await this.checkPassword(user, password);
    const token = newLinkToken();
    const taken = Boolean(await this.deps.users.findByEmail(email));
    await this.save(user, {
      emailChangeTo: email,
      emailChangeTokenHash: hashLinkToken(token),
      emailChangeExpiresAt: new Date(Date.now() + EMAIL_LINK_TTL_MS),
      ...NO_CANCEL_NOTICE,
    });
    // A fragment never reaches any server, so no log (ours or nginx's) can keep the token.
    const link = `${this.deps.publicUrl}/confirm-email#token=${token}`;
    const siteName = await this.deps.siteName();
    await Promise.all([
      this.deps.mailer.send(
        taken ? emailTakenMail(email, siteName) : confirmEmailMail(email, link, siteName),
      ),
      this.deps.mailer.send(emailChangeNoticeMail(user.email, user.name, email, siteName)),
    ]);
    this.deps.log.info({ userId: user._id }, 'E-mail change asked for');
    return EMAIL_CHANGE_SENT(email);
  }

  /** The member ends their own pending change: its link stops working. */
  async cancelEmailChange(user: UserDoc): Promise<{ message: string; email: string }> {
    const pending = pendingEmail(user);
    if (!pending) throw new AppError('NOT_FOUND', NOTHING_PENDING);
    await this.save(user, NO_EMAIL_CHANGE);
    return { message: EMAIL_CHANGE_WITHDRAWN(pending), email: pending };
  }

  /** Opens the link: the change is made once, before the link expires, if the address is still free. */
  async confirmEmail(token: string): Promise<{ message: string; user: UserDoc; previousEmail: string }> {
    const hash = hashLinkToken(token);
    const user = await this.deps.users.findByEmailChangeTokenHash(hash, new Date());
    if (!user?.emailChangeTo) throw new AppError('INVALID_TOKEN', INVALID_LINK);
    try {
      const updated = await this.deps.users.updateIfEmailChangeMatches(user._id, hash, {
        email: user.emailChangeTo,
        ...NO_EMAIL_CHANGE,
        // A reset link mailed to the old address would hand the account back to whoever reads it.
        resetTokenHash: undefined,
        resetTokenExpiresAt: undefined,
      });
      if (!updated) throw new AppError('INVALID_TOKEN', INVALID_LINK);
      return {
        message: `Your e-mail address is now ${updated.email}.`,
        user: updated,
        previousEmail: user.email,
      };
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      await this.deps.users.updateIfEmailChangeMatches(user._id, hash, NO_EMAIL_CHANGE);
      throw new AppError('CONFLICT', ADDRESS_TAKEN);
    }
  }

  /**
   * A new password ends every other session (the one it was changed from stays signed in) and
   * any pending e-mail change.
   */
  async changePassword(user: UserDoc, sessionId: string, current: string, next: string): Promise<number> {
    await this.checkPassword(user, current);
    await this.save(user, {
      password: await hashPassword(next),
      resetTokenHash: undefined,
      resetTokenExpiresAt: undefined,
      ...voidEmailChange(user, 'password'),
    });
    return this.deps.sessions.endAll(user._id, sessionId);
  }

  /** Every session, this one included, and any pending e-mail change. */
  async signOutEverywhere(user: UserDoc): Promise<number> {
    if (user.emailChangeTo) await this.save(user, voidEmailChange(user, 'sign-out'));
    return this.deps.sessions.endAll(user._id);
  }

  async exportData(user: UserDoc, sessionId: string): Promise<AccountExport> {
    return accountExport({
      user: {
        ...toPublicUser(user),
        pendingEmail: pendingEmail(user),
        cancelledEmailChange: cancelledEmailChange(user),
      },
      sessions: await this.deps.sessions.list(user._id, sessionId),
      activity: await this.deps.activity.aboutOwnAccount(user._id),
      courseProgress: await this.deps.courseProgress(user._id),
    });
  }

  /**
   * Administrators are refused: another administrator removes them, so the console keeps an
   * owner. A paid subscription is cancelled first; when it cannot be, nothing is deleted (see
   * PaymentsService.cancelForDeletion). Answers whether a subscription was cancelled.
   */
  async deleteAccount(user: UserDoc, password: string): Promise<{ subscriptionCancelled: boolean }> {
    if (user.role === 'admin') throw new AppError('FORBIDDEN', ADMIN_CANNOT_DELETE);
    await this.checkPassword(user, password);
    const subscriptionCancelled = await this.deps.removal.endBilling(user, 'member');
    await this.deps.removal.delete(user);
    this.deps.log.info({ userId: user._id }, 'Account deleted by its member');
    return { subscriptionCancelled };
  }

  private async checkPassword(user: UserDoc, password: string): Promise<void> {
    if (!(await verifyPassword(user.password, password)))
      throw new AppError('INVALID_CREDENTIALS', WRONG_PASSWORD);
  }

  private async save(user: UserDoc, changes: DocChanges<UserDoc>): Promise<UserDoc> {
    const saved = await this.deps.users.update(user._id, changes);
    if (!saved) throw new AppError('NOT_FOUND', 'This account no longer exists.');
    return saved;
  }
}
