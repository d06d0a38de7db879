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
  /** What the member did, as the Activity log recorded it. */
  activity: ActivityEntry[];
}

export function accountExport(parts: Omit<AccountExport, 'exportedAt'>): AccountExport {
  return { exportedAt: new Date().toISOString(), ...parts };
}
