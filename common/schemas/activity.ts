import { z } from 'zod';
import type { TextFile } from './envelopes';

/**
 * Every kind of Activity log entry, with the words the console shows for it. A feature that
 * records a new kind of change adds it here (the filter list and the CSV follow).
 */
export const ACTIVITY_KINDS = {
  'user.created': 'User created',
  'user.updated': 'User edited',
  'user.suspended': 'User suspended',
  'user.role': 'Role changed',
  'user.deleted': 'User deleted',
  'slider.saved': 'Slideshow settings saved',
  'playlist.created': 'Playlist created',
  'playlist.updated': 'Playlist saved',
  'playlist.deleted': 'Playlist deleted',
  'media.uploaded': 'Media uploaded',
  'media.deleted': 'Media deleted',
  'database.saved': 'Database moved',
  'nginx.saved': 'Nginx saved',
  'nginx.restored': 'Nginx version restored',
  'nginx.restarted': 'Nginx restarted',
  'nginx.certificate': 'HTTPS certificate obtained',
  'nginx.certificate-failed': 'HTTPS certificate not obtained',
  'nodejs.saved': 'Node.js settings saved',
  'nodejs.restarted': 'Server restarted',
  'signin.succeeded': 'Administrator signed in',
  'signin.failed': 'Failed sign-in',
  'reauth.failed': 'Wrong password confirmation',
  'sessions.ended': 'Signed out everywhere by an administrator',
  'account.renamed': 'Member changed their name',
  'account.email-requested': 'Member asked to change their e-mail',
  'account.email-changed': 'Member confirmed a new e-mail',
  'account.email-cancelled': 'Member cancelled an e-mail change',
  'account.password': 'Member changed their password',
  'account.signed-out': 'Member signed out everywhere',
  'account.deleted': 'Member deleted their account',
  'membership.tier': 'Membership tier changed',
  'payments.saved': 'Payment settings saved',
  'payments.course-price': 'Course price set',
  'payments.course-bought': 'Course bought',
  'payments.course-refunded': 'Course refunded',
  'course.created': 'Course created',
  'course.updated': 'Course edited',
  'course.deleted': 'Course deleted',
  'course.outline': 'Course sections or order changed',
  'course.lesson': 'Lesson edited',
  'course.file': 'Lesson file added or removed',
  'course.settings': 'Courses settings saved',
  'site.saved': 'Site settings saved',
  'site.page': 'Site page edited',
  'mail.announcement': 'Announcement queued',
  'mail.cancelled': 'Announcement cancelled',
  'mail.settings': 'Mail settings saved',
  'mail.complaint': 'Address marked as complaining',
} as const;

export type ActivityKind = keyof typeof ACTIVITY_KINDS;
export const ACTIVITY_KIND_IDS = Object.keys(ACTIVITY_KINDS) as [ActivityKind, ...ActivityKind[]];

/** Entries per page of the Activity section. */
export const ACTIVITY_PAGE_SIZES = [25, 50, 100] as const;

/** One entry as the API sends it. `before`/`after` have their secrets replaced by '[redacted]'. */
export interface ActivityEntry {
  _id: string;
  at: string;
  actorId: string | null;
  actorEmail: string;
  address: string;
  kind: ActivityKind;
  summary: string;
  before: unknown;
  after: unknown;
}

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are written YYYY-MM-DD')
  .optional()
  .or(z.literal('').transform(() => undefined));

/** GET /api/admin/activity and its CSV export: filters by person, kind and date (inclusive days, UTC). */
export const activityExportQuery = z.object({
  actor: z.string().trim().toLowerCase().max(254).optional(),
  kind: z
    .enum(ACTIVITY_KIND_IDS, { error: 'Unknown kind of activity' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  from: day,
  to: day,
});
export type ActivityExportQuery = z.infer<typeof activityExportQuery>;

export const activityListQuery = activityExportQuery.extend({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce
    .number()
    .refine((n) => (ACTIVITY_PAGE_SIZES as readonly number[]).includes(n), 'pageSize must be 25, 50 or 100')
    .default(25),
});
export type ActivityListQuery = z.infer<typeof activityListQuery>;

export interface ActivityListResponse {
  success: true;
  data: ActivityEntry[];
  total: number;
  totalPages: number;
  currentPage: number;
}

/** GET /api/admin/activity/export.csv */
export type ActivityCsvResponse = TextFile;
