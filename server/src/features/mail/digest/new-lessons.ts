import { courseLock, type MemberFacts, sectionLock, viewerOf } from '../../courses/access/access-rules';
import type { CourseDoc, LessonDoc, SectionDoc } from '../../courses/courses.repository';

/** A published course as the digest reads it: sections with their lessons, in order. */
export interface CourseOutline {
  course: CourseDoc;
  sections: Array<{ section: SectionDoc; lessons: LessonDoc[] }>;
}

export interface OpenedLessons {
  course: CourseDoc;
  lessons: LessonDoc[];
}

/**
 * The lessons of a course that opened for this member in the window (after `from`, up to `to`):
 * a lesson opens when both it exists (the owner added it) and its section's drip has opened for
 * the member (days after their clock, or a date). Only for a course the member may open: the
 * access rules (courses/access/access-rules.ts) decide, so a paid course never counts for a free
 * member. Pure: the clock is the window, so tests give any.
 */
export function lessonsOpened(
  member: MemberFacts,
  outline: CourseOutline,
  from: Date,
  to: Date,
): LessonDoc[] {
  const viewer = viewerOf(member);
  if (courseLock(viewer, outline.course) !== null) return [];
  const opened: LessonDoc[] = [];
  for (const { section, lessons } of outline.sections) {
    // Asked "at the dawn of time", the drip answers when the section opens for this member.
    const lock = sectionLock(viewer, outline.course, section.drip, new Date(0));
    const sectionOpensAt = lock?.opensAt ? new Date(lock.opensAt).getTime() : Number.NEGATIVE_INFINITY;
    for (const lesson of lessons) {
      const opensAt = lesson.freePreview
        ? lesson.createdAt.getTime()
        : Math.max(sectionOpensAt, lesson.createdAt.getTime());
      if (opensAt > from.getTime() && opensAt <= to.getTime()) opened.push(lesson);
    }
  }
  return opened;
}

/** Every course the member started where lessons opened in the window, in the catalogue's order. */
export function digestFor(
  member: MemberFacts,
  started: ReadonlySet<string>,
  outlines: CourseOutline[],
  from: Date,
  to: Date,
): OpenedLessons[] {
  return outlines
    .filter((outline) => started.has(outline.course._id))
    .map((outline) => ({ course: outline.course, lessons: lessonsOpened(member, outline, from, to) }))
    .filter((entry) => entry.lessons.length > 0);
}

/** The digest as Markdown: one heading per course, one link per lesson. */
export function digestMarkdown(name: string, opened: OpenedLessons[]): string {
  const parts = opened.map(
    ({ course, lessons }) =>
      `## ${course.title}\n\n${lessons
        .map(
          (lesson) =>
            `- [${lesson.title.replace(/[[\]]/g, '')}](/courses/${course.slug}/lessons/${lesson._id})`,
        )
        .join('\n')}`,
  );
  return `Hello ${name},\n\nNew lessons are open for you:\n\n${parts.join('\n\n')}\n`;
}
