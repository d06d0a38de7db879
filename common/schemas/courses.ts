import { z } from 'zod';
import { COURSE_ACCESS, LESSON_FILE_SLOTS, MAX_LESSON_MARKDOWN, PREVIEW_VIEWERS } from '../courses.ts';

const title = z
  .string({ error: 'A title is required' })
  .trim()
  .min(1, 'A title is required')
  .max(160, 'Titles are at most 160 characters');

/** An address part: lower-case letters and digits in words joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const slugSchema = z
  .string({ error: 'An address is required' })
  .trim()
  .toLowerCase()
  .min(1, 'An address is required')
  .max(80, 'The address is at most 80 characters')
  .regex(SLUG_PATTERN, 'Use lower-case letters, digits and single hyphens (e.g. morning-practice)');

/** A picture of the media library (`/media/image/…`), or none. */
export const coverUrlSchema = z
  .string()
  .trim()
  .max(1024, 'The picture address is too long')
  .regex(/^\/media\/image\/[^?#]+$/, 'Pick the cover picture from the media library')
  .refine((url) => !url.split('/').includes('..'), 'Pick the cover picture from the media library')
  .nullable();

const id = z.string().regex(/^[0-9a-f]{24}$/, 'Not an id');

export const courseCreateBody = z.object({ title });

export const courseUpdateBody = z.object({
  title: title.optional(),
  slug: slugSchema.optional(),
  summary: z.string().trim().max(600, 'The summary is at most 600 characters').optional(),
  coverUrl: coverUrlSchema.optional(),
  access: z.enum(COURSE_ACCESS, { error: 'Access is public, members or paid' }).optional(),
  published: z.boolean().optional(),
});
export type CourseUpdateBody = z.infer<typeof courseUpdateBody>;

/** When a section opens: at once, a number of days after the member's start, or on a date. */
export const dripSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({
    kind: z.literal('days'),
    days: z.number().int('Whole days').min(1, 'At least 1 day').max(3650, 'At most 3650 days'),
  }),
  z.object({
    kind: z.literal('date'),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are written YYYY-MM-DD'),
  }),
]);
export type Drip = z.infer<typeof dripSchema>;

export const sectionCreateBody = z.object({ title });
export const sectionUpdateBody = z.object({ title: title.optional(), drip: dripSchema.optional() });
export type SectionUpdateBody = z.infer<typeof sectionUpdateBody>;

export const lessonCreateBody = z.object({ title });
export const lessonUpdateBody = z.object({
  title: title.optional(),
  markdown: z.string().max(MAX_LESSON_MARKDOWN, 'The lesson text is too long').optional(),
  freePreview: z.boolean().optional(),
  durationMinutes: z
    .number()
    .int('Whole minutes')
    .min(0, 'Not negative')
    .max(24 * 60, 'At most a day')
    .nullable()
    .optional(),
});
export type LessonUpdateBody = z.infer<typeof lessonUpdateBody>;

/** The whole order of a course: every section once, every lesson once, in their new places. */
export const outlineOrderBody = z.object({
  sections: z.array(z.object({ id, lessonIds: z.array(id).max(1000) })).max(200, 'At most 200 sections'),
});
export type OutlineOrderBody = z.infer<typeof outlineOrderBody>;

export const markdownPreviewBody = z.object({
  markdown: z.string().max(MAX_LESSON_MARKDOWN, 'The lesson text is too long'),
  /** The lesson being written: its course's pictures show in the preview through signed links. */
  lessonId: z
    .string()
    .regex(/^[0-9a-f]{24}$/, 'Not an id')
    .optional(),
});

/**
 * What the upgrade link may be: none, an https:// address, or a path on this site. A path starts
 * with one `/` and no second `/` or `\`: browsers read `//evil.example/x` and `/\evil.example` as
 * another site. No whitespace or backslash anywhere (browsers drop or turn them into `/`).
 */
export function isUpgradeLink(url: string): boolean {
  return url === '' || /^(?:https:\/\/[^\s\\/]|\/(?![/\\]))[^\s\\]*$/.test(url);
}

export const coursesSettingsBody = z.object({
  upgradeText: z.string().trim().max(400, 'At most 400 characters'),
  upgradeLinkLabel: z.string().trim().max(60, 'At most 60 characters'),
  upgradeLinkUrl: z
    .string()
    .trim()
    .max(1024, 'The address is too long')
    .refine(isUpgradeLink, 'An https:// address or a path on this site (one / then the path)'),
});
export type CoursesSettingsBody = z.infer<typeof coursesSettingsBody>;

export const positionBody = z.object({
  seconds: z.number().min(0).max(1e7),
  duration: z.number().min(0).max(1e7).optional(),
});

export const previewQuery = z.object({ as: z.enum(PREVIEW_VIEWERS).optional() });

/** The multipart field `slot` of a lesson file upload, sent before the file. */
export const lessonFileSlotSchema = z.enum(LESSON_FILE_SLOTS, { error: 'slot is media or download' });
