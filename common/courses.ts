/**
 * Course constants both sides use, without zod (the public course pages import these; the
 * request schemas in schemas/courses.ts build on them).
 */

/** Who may open a course's lessons: anyone, any signed-in member, or paid members only. */
export const COURSE_ACCESS = ['public', 'members', 'paid'] as const;
export type CourseAccess = (typeof COURSE_ACCESS)[number];

export const COURSE_ACCESS_LABELS: Record<CourseAccess, string> = {
  public: 'Public',
  members: 'Members',
  paid: 'Paid members',
};

/** The viewers an administrator can preview a course as (the console's "Preview as…"). */
export const PREVIEW_VIEWERS = ['visitor', 'free', 'paid'] as const;
export type PreviewViewer = (typeof PREVIEW_VIEWERS)[number];

/** Longest Markdown body of a lesson (about a short book chapter). */
export const MAX_LESSON_MARKDOWN = 200_000;
/** Lesson media and downloads: at least 2 GB each, as the issue asks; 4 GiB leaves room for long HD video. */
export const MAX_LESSON_FILE_BYTES = 4 * 1024 * 1024 * 1024;
/** Downloads one lesson may carry. */
export const MAX_LESSON_DOWNLOADS = 30;
/** A video or audio lesson counts as completed once this share of it was played. */
export const AUTO_COMPLETE_SHARE = 0.9;
/** How often the player saves the playing position while it plays. */
export const POSITION_SAVE_EVERY_MS = 10_000;

/**
 * The place a lesson file fills: the lesson's media (the one video or audio its player plays) or
 * one of its downloads. Stored under its first name, `role` (lesson-files.repository.ts).
 */
export const LESSON_FILE_SLOTS = ['media', 'download'] as const;
export type LessonFileSlot = (typeof LESSON_FILE_SLOTS)[number];

/** File types a lesson's player takes (checked again by content on the server). */
export const LESSON_MEDIA_EXTENSIONS = {
  video: ['mp4', 'webm', 'm4v', 'mov', 'ogv'],
  audio: ['mp3', 'm4a', 'aac', 'ogg', 'oga', 'wav', 'flac', 'opus'],
} as const;
/** What a lesson's media is: a video or a recording. */
export type LessonMediaKind = keyof typeof LESSON_MEDIA_EXTENSIONS;
/** Downloads: documents, archives, pictures, media. Anything else is refused. */
export const LESSON_DOWNLOAD_EXTENSIONS = [
  'pdf',
  'zip',
  'epub',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'mp3',
  'm4a',
  'mp4',
  'webm',
  'docx',
  'xlsx',
  'pptx',
  'odt',
  'ods',
  'odp',
  'txt',
  'csv',
  'md',
] as const;

/**
 * How wide a course cover shows, as `sizes` for its copies: on a card of the catalogue's grid
 * (three, two or one across, at most 64rem) and across the course page (at most 48rem). The
 * page's `<img>` and the server's preload of it must say the same, or the copy is fetched twice.
 */
export const COVER_SIZES = {
  card: '(min-width: 1024px) 330px, (min-width: 640px) 50vw, 100vw',
  page: '(min-width: 768px) 768px, 100vw',
} as const;
