import type {
  CourseCard,
  CourseDetail,
  CourseProgress,
  LessonKind,
  LessonRef,
  Lock,
  OutlineSection,
  ViewerInfo,
} from '@common/schemas/course-views';
import { courseLock, lessonLock, sectionLock, type Viewer } from './access/access-rules';
import type { CourseDoc, LessonDoc, SectionDoc } from './courses.repository';
import type { ProgressDoc } from './progress/progress.repository';

/** A course with its sections and lessons, each list in order. */
export interface CourseTree {
  course: CourseDoc;
  sections: SectionDoc[];
  /** Every lesson, in reading order: by section, then by place within it. */
  lessons: LessonDoc[];
}

export interface PlacedLesson {
  lesson: LessonDoc;
  section: SectionDoc;
  lock: Lock | null;
}

export function treeOf(course: CourseDoc, sections: SectionDoc[], lessons: LessonDoc[]): CourseTree {
  const order = new Map(sections.map((section, i) => [section._id, i]));
  const placed = lessons
    .filter((lesson) => order.has(lesson.sectionId))
    .sort(
      (a, b) =>
        order.get(a.sectionId)! - order.get(b.sectionId)! ||
        a.position - b.position ||
        a._id.localeCompare(b._id),
    );
  return { course, sections, lessons: placed };
}

/** Every lesson in reading order with its section and this viewer's lock. */
export function placeLessons(tree: CourseTree, viewer: Viewer, now: Date): PlacedLesson[] {
  const sections = new Map(tree.sections.map((section) => [section._id, section]));
  return tree.lessons.map((lesson) => {
    const section = sections.get(lesson.sectionId)!;
    return { lesson, section, lock: lessonLock(viewer, tree.course, section.drip, lesson, now) };
  });
}

export function lessonKind(lesson: Pick<LessonDoc, 'media'>): LessonKind {
  return lesson.media?.kind ?? 'text';
}

export function viewerInfo(viewer: Viewer): ViewerInfo {
  if (viewer.kind === 'admin') return { kind: 'admin', preview: null };
  if (viewer.kind === 'visitor') return { kind: 'visitor', preview: viewer.preview };
  return { kind: viewer.tier, preview: viewer.preview };
}

/** Completed lessons that are still in the course, out of its lessons. */
export function progressIn(lessonIds: readonly string[], progress: ProgressDoc | null): CourseProgress {
  const ids = new Set(lessonIds);
  const completed = progress ? progress.completed.filter((id) => ids.has(id)).length : 0;
  return percentOf(completed, lessonIds.length);
}

/** For a list, where the lessons are not read: the count kept on the course. */
export function progressByCount(course: CourseDoc, progress: ProgressDoc | null): CourseProgress {
  return percentOf(Math.min(progress?.completed.length ?? 0, course.lessonCount), course.lessonCount);
}

function percentOf(completed: number, total: number): CourseProgress {
  return { completed, total, percent: total === 0 ? 0 : Math.round((completed / total) * 100) };
}

/** What every view of a course, the member's and the editor's, starts with. */
export function courseHead(course: CourseDoc) {
  return {
    id: course._id,
    slug: course.slug,
    title: course.title,
    summary: course.summary,
    coverUrl: course.coverUrl,
    access: course.access,
  };
}

export function cardOf(
  course: CourseDoc,
  viewer: Viewer,
  progress: ProgressDoc | null,
  exact?: CourseProgress,
): CourseCard {
  const lock = courseLock(viewer, course);
  const counted = viewer.kind === 'visitor' ? null : (exact ?? progressByCount(course, progress));
  const finished =
    Boolean(progress?.completedAt) ||
    (counted !== null && counted.total > 0 && counted.completed >= counted.total);
  return {
    ...courseHead(course),
    lessonCount: course.lessonCount,
    totalMinutes: course.totalMinutes,
    status: lock ? 'locked' : finished ? 'completed' : progress ? 'continue' : 'start',
    lock,
    progress: counted,
  };
}

/** The first open lesson not completed yet: where "Continue" goes. */
export function continueLesson(placed: PlacedLesson[], progress: ProgressDoc | null): LessonRef | null {
  const done = new Set(progress?.completed ?? []);
  const found = placed.find((p) => !p.lock && !done.has(p.lesson._id)) ?? null;
  return found && { id: found.lesson._id, title: found.lesson.title };
}

/** The next lesson after `lessonId` that this viewer may open: "Complete and continue" goes there. */
export function nextOpenAfter(placed: PlacedLesson[], lessonId: string): LessonRef | null {
  const at = placed.findIndex((p) => p.lesson._id === lessonId);
  const found = placed.slice(at + 1).find((p) => !p.lock) ?? null;
  return found && { id: found.lesson._id, title: found.lesson.title };
}

export function detailOf(
  tree: CourseTree,
  viewer: Viewer,
  progress: ProgressDoc | null,
  now: Date,
): CourseDetail {
  const placed = placeLessons(tree, viewer, now);
  const done = new Set(progress?.completed ?? []);
  const exact = progressIn(
    tree.lessons.map((lesson) => lesson._id),
    progress,
  );
  const sections: OutlineSection[] = tree.sections.map((section) => ({
    id: section._id,
    title: section.title,
    lock: sectionLock(viewer, tree.course, section.drip, now),
    lessons: placed
      .filter((p) => p.section._id === section._id)
      .map(({ lesson, lock }) => ({
        id: lesson._id,
        title: lesson.title,
        kind: lessonKind(lesson),
        durationMinutes: lesson.durationMinutes,
        freePreview: lesson.freePreview,
        downloads: lesson.downloads.length,
        completed: done.has(lesson._id),
        lock,
      })),
  }));
  return {
    ...cardOf(tree.course, viewer, progress, exact),
    published: tree.course.published,
    sections,
    next: continueLesson(placed, progress),
    viewer: viewerInfo(viewer),
    offer: null,
    coursePrice: null,
  };
}
