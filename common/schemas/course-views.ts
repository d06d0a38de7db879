import type { CourseAccess, LessonMediaKind, PreviewViewer } from '../courses';
import type { Drip } from './courses';

/** Why a lesson (or a whole section or course) cannot be opened by this viewer. */
export type LockReason = 'sign-in' | 'upgrade' | 'drip';

export interface Lock {
  reason: LockReason;
  /** One plain sentence for the viewer. */
  message: string;
  /** A dripped section: when it opens for this viewer (ISO), when that is known. */
  opensAt?: string;
  /** A dripped section seen by a visitor: opens this many days after joining. */
  opensAfterDays?: number;
}

/** What a lesson is: its media's kind, or text when it has none. */
export type LessonKind = LessonMediaKind | 'text';

export interface OutlineLesson {
  id: string;
  title: string;
  kind: LessonKind;
  durationMinutes: number | null;
  freePreview: boolean;
  downloads: number;
  completed: boolean;
  /** null: this viewer may open it. */
  lock: Lock | null;
}

export interface OutlineSection {
  id: string;
  title: string;
  /** The section's drip lock for this viewer (its lessons carry it too). */
  lock: Lock | null;
  lessons: OutlineLesson[];
}

export interface CourseProgress {
  completed: number;
  total: number;
  percent: number;
}

/** What the viewer can do with a course, as its card says it. */
export type CourseStatus = 'start' | 'continue' | 'completed' | 'locked';

export interface CourseCard {
  id: string;
  slug: string;
  title: string;
  summary: string;
  coverUrl: string | null;
  /** The cover's resized WebP copies as an `<img srcset>`, once they are made (else the original shows). */
  coverSrcset?: string;
  access: CourseAccess;
  lessonCount: number;
  totalMinutes: number;
  status: CourseStatus;
  /** Why the course is locked for this viewer (status 'locked'). */
  lock: Lock | null;
  /** null for a visitor. */
  progress: CourseProgress | null;
}

export interface LessonRef {
  id: string;
  title: string;
}

/** The viewer the answer was made for (an administrator previewing says as which viewer). */
export interface ViewerInfo {
  kind: 'visitor' | 'free' | 'paid' | 'admin';
  preview: PreviewViewer | null;
}

export interface CourseDetail extends CourseCard {
  published: boolean;
  sections: OutlineSection[];
  /** The lesson "Continue" opens: the next open lesson not completed yet. */
  next: LessonRef | null;
  viewer: ViewerInfo;
  /** The owner's upgrade offer, when the course is locked for want of the paid tier. */
  offer: UpgradeOfferSettings | null;
  /**
   * The course price, when the course is locked for want of the paid tier and sold on its own:
   * its amount and currency only (a visitor reads it too), null otherwise.
   */
  coursePrice: CoursePrice | null;
}

/** A course's one-time price as its page shows it: in the currency's smallest unit (cents). */
export interface CoursePrice {
  amount: number;
  currency: string;
}

export interface LessonFileLink {
  id: string;
  name: string;
  size: number;
  mime: string;
  /** Signed for this viewer and this file; stops working at `expiresAt`. */
  url: string;
  expiresAt: string;
}

export interface LessonView {
  id: string;
  title: string;
  kind: LessonKind;
  durationMinutes: number | null;
  freePreview: boolean;
  course: { id: string; slug: string; title: string; access: CourseAccess };
  section: { id: string; title: string };
  /** null: open. When locked, nothing below is filled. */
  lock: Lock | null;
  /** Sanitised HTML of the lesson's Markdown. */
  html: string;
  media: (LessonFileLink & { kind: LessonMediaKind }) | null;
  downloads: LessonFileLink[];
  /** Where playback resumes, in seconds. */
  position: number;
  completed: boolean;
  previous: LessonRef | null;
  /** The next lesson in order, and whether this viewer may open it. */
  next: (LessonRef & { locked: boolean }) | null;
  progress: CourseProgress | null;
  viewer: ViewerInfo;
  /** The owner's upgrade offer, when the lesson is locked for want of the paid tier. */
  offer: UpgradeOfferSettings | null;
}

export interface CompleteResult {
  progress: CourseProgress;
  /** The next open lesson, for "Complete and continue"; null at the end of what is open. */
  next: LessonRef | null;
  courseCompleted: boolean;
}

export interface PositionResult {
  saved: boolean;
  completed: boolean;
}

/** The owner's words and link offering the paid tier (the Courses section's settings). */
export interface UpgradeOfferSettings {
  upgradeText: string;
  upgradeLinkLabel: string;
  upgradeLinkUrl: string;
}

export interface ContinueEntry {
  course: { slug: string; title: string };
  lesson: LessonRef;
  /** Seconds into the lesson's media; 0 for a text lesson or a fresh one. */
  position: number;
  progress: CourseProgress;
}

export interface MemberHome {
  tier: 'free' | 'paid';
  continue: ContinueEntry | null;
  /** Courses the member can open, started ones first. */
  courses: CourseCard[];
  /** What the paid tier unlocks (for a free member: locked paid courses). */
  locked: CourseCard[];
  offer: UpgradeOfferSettings | null;
  /** Courses the member bought on their own (each is among `courses` too). */
  bought: Array<Pick<CourseCard, 'id' | 'slug' | 'title'>>;
}

// The console's views.

export interface AdminCourseRow {
  id: string;
  slug: string;
  title: string;
  access: CourseAccess;
  published: boolean;
  lessonCount: number;
  started: number;
  completed: number;
  /** completed / started, 0 to 1; null when nobody started. */
  completionRate: number | null;
  updatedAt: string;
}

export interface AdminLessonFile {
  id: string;
  name: string;
  size: number;
  mime: string;
}

export interface AdminLessonSummary {
  id: string;
  title: string;
  kind: LessonKind;
  freePreview: boolean;
  durationMinutes: number | null;
  downloads: number;
}

export interface AdminSection {
  id: string;
  title: string;
  drip: Drip;
  lessons: AdminLessonSummary[];
}

export interface AdminCourse {
  id: string;
  slug: string;
  title: string;
  summary: string;
  coverUrl: string | null;
  access: CourseAccess;
  published: boolean;
  sections: AdminSection[];
  updatedAt: string;
}

export interface AdminLesson {
  id: string;
  sectionId: string;
  title: string;
  markdown: string;
  freePreview: boolean;
  durationMinutes: number | null;
  media: (AdminLessonFile & { kind: LessonMediaKind }) | null;
  downloads: AdminLessonFile[];
}
