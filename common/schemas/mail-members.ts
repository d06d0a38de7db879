import { z } from 'zod';
import type { DataAnswer, DoneAnswer } from './envelopes';

/*
 * Mail to members (docs/member-mail.md): announcements the owner writes to a segment, the
 * members' preferences and the sending settings. The queue of one-off messages is mail.ts.
 */

/** Who an announcement goes to. A course segment takes the course's access rule into account. */
export const SEGMENT_KINDS = ['everyone', 'free', 'paid', 'course', 'completed'] as const;
export type SegmentKind = (typeof SEGMENT_KINDS)[number];

const courseId = z.string().regex(/^[0-9a-f]{24}$/, 'Choose a course.');
export const segmentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('everyone') }),
  z.object({ kind: z.literal('free') }),
  z.object({ kind: z.literal('paid') }),
  z.object({ kind: z.literal('course'), courseId }),
  z.object({ kind: z.literal('completed'), courseId }),
]);
export type Segment = z.infer<typeof segmentSchema>;

const subject = z
  .string()
  .trim()
  .min(1, 'Write a subject.')
  .max(200, 'The subject is at most 200 characters.');
const markdown = z
  .string()
  .trim()
  .min(1, 'Write the mail: the text is empty.')
  .max(50_000, 'The text is at most 50,000 characters.');

/** POST /api/admin/mail/announcements/preview and /test: what the owner is writing. */
export const draftBody = z.object({ subject, markdown });
export type Draft = z.infer<typeof draftBody>;

/** POST /api/admin/mail/announcements */
export const announcementBody = z.object({
  subject,
  markdown,
  segment: segmentSchema,
  /** ISO time to send at; absent: now. A time in the past is refused. */
  scheduledAt: z.string().datetime({ offset: true, message: 'The time to send is not a date.' }).optional(),
});
export type AnnouncementInput = z.infer<typeof announcementBody>;

/** POST /api/admin/mail/announcements/count */
export const countBody = z.object({ segment: segmentSchema });

export const announcementIdParam = z.object({
  id: z.string().regex(/^[0-9a-f]{24}$/, 'That announcement does not exist.'),
});

export type AnnouncementState = 'scheduled' | 'sending' | 'sent' | 'cancelled';

/** An announcement as the console shows it: its progress, never a member's link. */
export interface AnnouncementView {
  id: string;
  subject: string;
  segment: Segment;
  /** The segment in words ("Paid members", "Members of Yoga basics"). */
  segmentLabel: string;
  state: AnnouncementState;
  scheduledAt: string;
  createdAt: string;
  finishedAt: string | null;
  /** Members in the segment when it was queued. */
  recipients: number;
  sent: number;
  failed: number;
  /** Members skipped: they turned the kind of mail off, or bulk mail to them was stopped. */
  unsubscribed: number;
  /** Still to go: recipients less those done (never below zero). */
  queued: number;
  /** The newest failures, in plain words. */
  failures: Array<{ to: string; error: string; at: string }>;
}

export type AnnouncementListResponse = DataAnswer<AnnouncementView[]>;
export type AnnouncementResponse = DataAnswer<AnnouncementView>;
export type AnnouncementCountResponse = DataAnswer<{ recipients: number; label: string }>;
export type PreviewResponse = DataAnswer<{ subject: string; html: string }>;
export type MailMembersDoneResponse = DoneAnswer;

/** The kinds of bulk mail a member may turn off; transactional mail (reset, receipts) is never one. */
export const BULK_KINDS = ['announcements', 'lessons'] as const;
export type BulkKind = (typeof BULK_KINDS)[number];

/** GET/PUT /api/mail/preferences, and the unsubscribe page's choices. */
export const preferencesBody = z.object({ announcements: z.boolean(), lessons: z.boolean() });
export type MailPreferences = z.infer<typeof preferencesBody>;
export type PreferencesResponse = DataAnswer<MailPreferences>;

/** Why bulk mail to an address stopped (shown in the console). */
export type StopReason = 'bounce' | 'complaint';

/** POST /api/admin/mail/stops: the owner marks a member as complaining. */
export const complaintBody = z.object({
  email: z.string().trim().toLowerCase().email('That is not an e-mail address.'),
});

export interface StoppedAddress {
  email: string;
  reason: StopReason;
  /** In plain words: the mail server's answer, or "Marked as a complaint by the owner". */
  detail: string;
  at: string;
}
export type StoppedListResponse = DataAnswer<StoppedAddress[]>;

/** GET/PUT /api/admin/mail/settings: how bulk mail goes out. */
export const bulkSettingsBody = z.object({
  perMinute: z
    .number()
    .int('Messages per minute is a whole number.')
    .min(1, 'Send at least 1 message a minute.')
    .max(6000, 'At most 6,000 messages a minute.'),
});
export type BulkSettings = z.infer<typeof bulkSettingsBody>;
export type BulkSettingsResponse = DataAnswer<BulkSettings>;

/** One welcome mail: sent once when a member joins (free) or becomes paid (paid). */
const welcomeMail = z.object({
  enabled: z.boolean(),
  subject,
  markdown,
});
/** GET/PUT /api/admin/mail/welcome */
export const welcomeBody = z.object({ free: welcomeMail, paid: welcomeMail });
export type WelcomeSettings = z.infer<typeof welcomeBody>;
export type WelcomeResponse = DataAnswer<WelcomeSettings>;
/** POST /api/admin/mail/welcome/test: the welcome of that tier as written now, to the owner. */
export const welcomeTestBody = z.object({ tier: z.enum(['free', 'paid']), subject, markdown });

/** PUT /api/admin/mail/identity: the address mail comes from (on the site's own domain). */
export const identityBody = z.object({
  from: z.string().trim().toLowerCase().email('That is not an e-mail address.'),
});

/** A DNS record to publish, as the owner copies it into their DNS provider. */
export interface DnsRecord {
  type: 'TXT';
  name: string;
  value: string;
  /** What it is for, in plain words. */
  purpose: string;
}

/** GET /api/admin/mail/identity: who mail comes from, whether it is signed, the records to publish. */
export interface MailIdentityView {
  from: string;
  /** MAIL_FROM: what is used until the owner sets another. */
  configuredFrom: string;
  domain: string;
  dkim: { selector: string; createdAt: string } | null;
  records: DnsRecord[];
}
export type MailIdentityResponse = DataAnswer<MailIdentityView>;
