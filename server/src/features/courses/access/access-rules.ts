import type { CourseAccess, PreviewViewer } from '@common/courses';
import { formatDay } from '@common/dates';
import type { Lock } from '@common/schemas/course-views';
import type { Drip } from '@common/schemas/courses';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Who is asking, as far as access goes. A member carries the moment their drip clock started
 * for each kind of course (see accessClockStart); an administrator sees everything unless they
 * preview as someone else, and a preview never writes progress (`userId` null).
 */
export type Viewer =
  | { kind: 'visitor'; preview: PreviewViewer | null }
  | {
      kind: 'member';
      userId: string | null;
      tier: 'free' | 'paid';
      joinedAt: Date;
      paidSince: Date;
      preview: PreviewViewer | null;
      /** Courses bought on their own: open whatever the tier (the payments feature records them). */
      bought?: readonly string[];
    }
  | { kind: 'admin'; userId: string };

/** What access needs of a user: their tier and when their clocks started. */
export interface MemberFacts {
  _id: string;
  role: 'user' | 'admin';
  membershipTier: 'free' | 'paid';
  createdAt: Date;
  /** When the member last became paid; set by the payments feature. Absent: since they joined. */
  paidSince?: Date | null;
  /** Courses bought on their own; `refundedAt` set once all of the payment was given back. */
  purchases?: ReadonlyArray<{ courseId: string; refundedAt: Date | null }>;
}

/**
 * The one place that says when a member's drip clock starts for a course: for a paid course the
 * moment they became paid (the payments feature records `paidSince`), else when they joined.
 */
export function accessClockStart(
  user: Pick<MemberFacts, 'createdAt' | 'paidSince'>,
  access: CourseAccess,
): Date {
  if (access === 'paid' && user.paidSince) return user.paidSince;
  return user.createdAt;
}

export function viewerOf(user: MemberFacts | null): Viewer {
  if (!user) return { kind: 'visitor', preview: null };
  if (user.role === 'admin') return { kind: 'admin', userId: user._id };
  return {
    kind: 'member',
    userId: user._id,
    tier: user.membershipTier,
    joinedAt: user.createdAt,
    paidSince: accessClockStart(user, 'paid'),
    preview: null,
    bought: (user.purchases ?? []).filter((p) => !p.refundedAt).map((p) => p.courseId),
  };
}

/** An administrator looking as a visitor, or as a member who joined (and paid) just now. */
export function previewViewer(preview: PreviewViewer, now = new Date()): Viewer {
  if (preview === 'visitor') return { kind: 'visitor', preview };
  return { kind: 'member', userId: null, tier: preview, joinedAt: now, paidSince: now, preview };
}

export interface CourseFacts {
  /** A course's id: a member who bought it on its own may open it. */
  _id?: string;
  access: CourseAccess;
}

/** Why this viewer may not open the course's lessons (free previews aside), or null. */
export function courseLock(viewer: Viewer, course: CourseFacts): Lock | null {
  if (viewer.kind === 'admin' || course.access === 'public') return null;
  if (course.access === 'members') {
    return viewer.kind === 'visitor'
      ? { reason: 'sign-in', message: 'Sign in or create a free account to open this lesson.' }
      : null;
  }
  if (viewer.kind === 'member' && viewer.tier === 'paid') return null;
  if (viewer.kind === 'member' && course._id && viewer.bought?.includes(course._id)) return null;
  return {
    reason: 'upgrade',
    message:
      viewer.kind === 'visitor'
        ? 'Part of the paid membership: join, then upgrade to open it.'
        : 'Part of the paid membership: upgrade to open it.',
  };
}

/** A dripped section: when it opens for this viewer, or null when it is open. */
export function sectionLock(viewer: Viewer, course: CourseFacts, drip: Drip, now: Date): Lock | null {
  if (viewer.kind === 'admin' || drip.kind === 'none') return null;
  if (drip.kind === 'date') {
    const opensAt = new Date(`${drip.date}T00:00:00.000Z`);
    if (now >= opensAt) return null;
    return { reason: 'drip', message: `Opens on ${formatDay(opensAt)}.`, opensAt: opensAt.toISOString() };
  }
  if (viewer.kind === 'visitor') {
    return {
      reason: 'drip',
      message: `Opens ${plural(drip.days, 'day')} after you join.`,
      opensAfterDays: drip.days,
    };
  }
  const start = course.access === 'paid' ? viewer.paidSince : viewer.joinedAt;
  const opensAt = new Date(start.getTime() + drip.days * DAY_MS);
  if (now >= opensAt) return null;
  return { reason: 'drip', message: `Opens on ${formatDay(opensAt)}.`, opensAt: opensAt.toISOString() };
}

/**
 * Why this viewer may not open a lesson, or null. A free preview is open to anyone who may see
 * the outline (everyone, for a published course), whatever the course's access or drip.
 */
export function lessonLock(
  viewer: Viewer,
  course: CourseFacts,
  drip: Drip,
  lesson: { freePreview: boolean },
  now: Date,
): Lock | null {
  if (viewer.kind === 'admin' || lesson.freePreview) return null;
  return courseLock(viewer, course) ?? sectionLock(viewer, course, drip, now);
}

/** Whether progress may be written for this viewer (signed in as themselves, not a preview). */
export function progressOwner(viewer: Viewer): string | null {
  if (viewer.kind === 'admin') return viewer.userId;
  if (viewer.kind === 'member') return viewer.userId;
  return null;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
