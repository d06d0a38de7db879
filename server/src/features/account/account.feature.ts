import type { AppContext } from '../../app-context';
import type { Feature } from '../../feature';
import type { SignInLimiter } from '../auth/sign-in-limiter';
import type { ProgressRepository } from '../courses/progress/progress.repository';
import type { PaymentsService } from '../payments/payments.service';
import { AccountRemoval } from '../users/account-removal';
import { accountRoutes } from './account.routes';
import { AccountService } from './account.service';
import { CourseRecords } from './course-records';

/** What the account feature hands the features built after it. */
export interface AccountFeature extends Feature {
  /** The one way an account is deleted, by its member here or by an administrator in User Management. */
  removal: AccountRemoval;
}

/**
 * The member's own account (`/api/account`). Deleting an account cancels its paid subscription
 * first (the payments feature's), and takes its course progress with it.
 */
export async function createAccountFeature(
  ctx: AppContext,
  needs: {
    limiter: SignInLimiter;
    billing: Pick<PaymentsService, 'cancelForDeletion'>;
    progress: ProgressRepository;
  },
): Promise<AccountFeature> {
  const courseRecords = new CourseRecords(ctx.store, needs.progress);
  const removal = new AccountRemoval(ctx.users, ctx.sessions, {
    endBilling: (user, by) => needs.billing.cancelForDeletion(user, by),
    forget: (user) => courseRecords.forget(user),
  });
  const account = new AccountService({
    users: ctx.users,
    sessions: ctx.sessions,
    mailer: ctx.mailer,
    siteName: () => ctx.site.name(),
    publicUrl: ctx.config.publicUrl,
    log: ctx.log,
    activity: ctx.activity,
    removal,
    courseProgress: (userId) => courseRecords.exportOf(userId),
  });
  return {
    name: 'account',
    routes: [{ prefix: '/api/account', plugin: accountRoutes(account, needs.limiter, ctx) }],
    removal,
  };
}
