import type { CancelledEmailChange, SessionInfo } from '@common/schemas/account';
import type { ActivityEntry } from '@common/schemas/activity';
import type { PublicUser } from '@common/schemas/user';

/**
 * "Download my data" (GDPR articles 15 and 20): everything the site keeps about a member, as one
 * JSON document. Each kind of record the site keeps about a member is one section here.
 */
export interface AccountExport {
  exportedAt: string;
  /** The user record, without the password hash or any token hash. */
  user: PublicUser & { pendingEmail: string | null; cancelledEmailChange: CancelledEmailChange | null };
  /** The member's signed-in browsers and devices. */
  sessions: SessionInfo[];
  /**
   * What the Activity log recorded about the member's own account. Not what they did to others'
   * (an administrator's edits): those entries hold other people's records.
   */
  activity: ActivityEntry[];
}

export function accountExport(parts: Omit<AccountExport, 'exportedAt'>): AccountExport {
  return { exportedAt: new Date().toISOString(), ...parts };
}
