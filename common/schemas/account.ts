import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../constants';
import type { ActivityEntry } from './activity';
import { newPasswordSchema } from './auth';
import type { DataAnswer, DoneAnswer, JsonFile } from './envelopes';
import { emailSchema, nameSchema, type PublicUser } from './user';

/** What the member types to confirm that their account is to be deleted. */
export const DELETE_CONFIRMATION = 'DELETE';

/** The current password, checked like a sign-in: no length rule, a wrong one is simply wrong. */
const currentPassword = z
  .string({ error: 'Current password is required' })
  .min(1, 'Current password is required')
  .max(MAX_PASSWORD_LENGTH, 'Current password is incorrect.');

// None of these carries a user id: every /api/account call acts on the signed-in member only.
export const updateNameBody = z.object({ name: nameSchema });
export const changeEmailBody = z.object({ email: emailSchema, password: currentPassword });
export const changePasswordBody = z.object({ currentPassword, newPassword: newPasswordSchema });
export const deleteAccountBody = z.object({
  password: currentPassword,
  confirmation: z
    .string({ error: `Type ${DELETE_CONFIRMATION} to confirm` })
    .refine((value) => value.trim() === DELETE_CONFIRMATION, `Type ${DELETE_CONFIRMATION} to confirm`),
});
/** The e-mail confirmation token travels in the body, never in a URL that a log could keep. */
export const confirmEmailBody = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This confirmation link is invalid or has expired.'),
});

/** One of the member's signed-in browsers or devices. */
export interface SessionInfo {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string;
  ip: string;
  /** The session this request was made with. */
  current: boolean;
}

/** Why a pending e-mail change was cancelled without the member asking. */
export type EmailChangeCancelReason = 'password' | 'reset' | 'sign-out';

/** A pending e-mail change that the owner's recovery cancelled, told on /account. */
export interface CancelledEmailChange {
  email: string;
  reason: EmailChangeCancelReason;
  at: string;
}

export interface AccountData {
  user: PublicUser;
  /** An e-mail change waiting for its confirmation link to be opened. */
  pendingEmail: string | null;
  /** The last pending change that a new password, a reset or Sign out everywhere cancelled. */
  cancelledEmailChange: CancelledEmailChange | null;
  sessions: SessionInfo[];
  /** How long the Activity log keeps its entries, anonymised ones about a deleted account too. */
  activityRetentionDays: number;
}

/** GET /api/account */
export type AccountResponse = DataAnswer<AccountData>;

/** PUT /api/account/name */
export interface AccountNameResponse extends DoneAnswer {
  data: PublicUser;
}

/** POST /api/account/confirm-email, POST /email, DELETE /email-change, POST /delete */
export type AccountDoneResponse = DoneAnswer;

/** PUT /api/account/password, POST /api/account/sign-out-everywhere: how many sessions ended. */
export interface SessionsEndedResponse extends DoneAnswer {
  ended: number;
}

/**
 * GET /api/account/export: "Download my data" (GDPR articles 15 and 20), everything the site
 * keeps about a member as one JSON document. Each kind of record is one section here.
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
  /** Where the member is in each course they started. (Their billing is the user record's `billing`.) */
  courseProgress: ExportedCourseProgress[];
}

/** A lesson named in the export: its title, or null when the owner has since removed it. */
export interface ExportedLesson {
  id: string;
  title: string | null;
}

/** The member's progress in one course, as "Download my data" gives it. */
export interface ExportedCourseProgress {
  courseId: string;
  /** The course's title and address now; null when the owner has since removed the course. */
  title: string | null;
  slug: string | null;
  /** In the order they were completed. */
  completedLessons: ExportedLesson[];
  /** Where playback was left, in seconds. */
  positions: Array<ExportedLesson & { seconds: number }>;
  lastLesson: ExportedLesson | null;
  lastAt: string;
  /** When every lesson of the course was first completed. */
  completedAt: string | null;
}

export type AccountExportResponse = JsonFile<AccountExport>;

export const EMAIL_CHANGE_SENT = (email: string) =>
  `We sent a confirmation link to ${email}. Your e-mail address changes when you open it.`;

/** The member cancelled their own pending change. */
export const EMAIL_CHANGE_WITHDRAWN = (email: string) =>
  `The change to ${email} is cancelled: its link no longer works.`;

const CANCEL_BECAUSE: Record<EmailChangeCancelReason, string> = {
  password: 'your password was changed',
  reset: 'your password was reset',
  'sign-out': 'you signed out everywhere',
};

/** What /account says after the owner's recovery cancelled a pending change. */
export const EMAIL_CHANGE_CANCELLED = ({ email, reason }: CancelledEmailChange) =>
  `The change of your e-mail address to ${email} was cancelled because ${CANCEL_BECAUSE[reason]}: its link no longer works. If you still want it, ask again.`;
