import type { SessionInfo } from '@common/schemas/account';
import type { PublicUser } from '@common/schemas/user';

/**
 * "Download my data" (GDPR articles 15 and 20): everything the site keeps about a member, as one
 * JSON document. Each kind of record the site keeps about a member is one section here.
 */
export interface AccountExport {
  exportedAt: string;
  /** The user record, without the password hash or any token hash. */
  user: PublicUser & { pendingEmail: string | null };
  /** The member's signed-in browsers and devices. */
  sessions: SessionInfo[];
  // The Activity log's entries about the member go here, as `activity`, once that log exists.
}

export function accountExport(parts: Omit<AccountExport, 'exportedAt'>): AccountExport {
  return { exportedAt: new Date().toISOString(), ...parts };
}
