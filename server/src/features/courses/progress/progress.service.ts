import { AUTO_COMPLETE_SHARE } from '@common/courses';
import type { CompleteResult, PositionResult } from '@common/schemas/course-views';
import { AppError } from '../../../lib/app-error';
import { lessonLock, progressOwner, type Viewer } from '../access/access-rules';
import { nextOpenAfter, placeLessons, progressIn, treeOf } from '../course-views';
import type { CourseDoc, CoursesRepository, LessonDoc } from '../courses.repository';
import { NO_SUCH_LESSON } from '../courses.service';
import type { ProgressChange, ProgressDoc, ProgressRepository } from './progress.repository';

/**
 * Writes a member's progress: a lesson completed, a playing position. Each is one
 * compare-and-set of the member's progress document in the course; the course's started and
 * completed counts go up in the same request when this write started or finished the course
 * (administrators' own progress is kept but never counted).
 */
export class ProgressService {
  constructor(
    private readonly courses: CoursesRepository,
    private readonly progress: ProgressRepository,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async complete(lessonId: string, viewer: Viewer): Promise<CompleteResult> {
    const { course, lesson } = await this.openLesson(lessonId, viewer);
    const [sections, lessons] = await Promise.all([
      this.courses.sectionsOf(course._id),
      this.courses.lessonsOf(course._id),
    ]);
    const tree = treeOf(course, sections, lessons);
    const ids = tree.lessons.map((l) => l._id);
    const { doc, finished } = await this.record(viewer, course, lesson._id, {
      complete: true,
      lessonIds: ids,
    });
    return {
      progress: progressIn(ids, doc),
      next: nextOpenAfter(placeLessons(tree, viewer, this.clock()), lesson._id),
      courseCompleted: finished || Boolean(doc?.completedAt),
    };
  }

  /**
   * Keeps where playback is. At AUTO_COMPLETE_SHARE of the media's length the lesson counts as
   * completed; the position is kept either way, so playback resumes there on any device.
   */
  async savePosition(
    lessonId: string,
    viewer: Viewer,
    seconds: number,
    duration?: number,
  ): Promise<PositionResult> {
    const { course, lesson } = await this.openLesson(lessonId, viewer);
    const position = Math.floor(seconds * 10) / 10;
    const watched = Boolean(
      lesson.media && duration && duration > 0 && seconds >= duration * AUTO_COMPLETE_SHARE,
    );
    // What a playing lesson sends every ~10 s: the position alone, one write (see setPosition).
    // The first save in a course (the start is counted), a lesson's first play (the figures count it) and
    // a save past the share (completion is worked out from the stored list) go through record's compare-and-set.
    if (!watched) {
      const kept = { lessonId: lesson._id, seconds: position };
      const doc = await this.progress.setPosition(progressOwner(viewer)!, course._id, kept, this.clock(), {
        onlyIfPlayed: true,
      });
      if (doc) return { saved: true, completed: doc.completed.includes(lesson._id) };
    }
    const lessonIds = watched ? (await this.courses.lessonsOf(course._id)).map((l) => l._id) : undefined;
    const { doc } = await this.record(viewer, course, lesson._id, { complete: watched, lessonIds, position });
    return { saved: doc !== null, completed: doc?.completed.includes(lesson._id) ?? false };
  }

  /** The lesson and its course, when this viewer may open it; else the reason in an error. */
  private async openLesson(
    lessonId: string,
    viewer: Viewer,
  ): Promise<{ course: CourseDoc; lesson: LessonDoc }> {
    if (!progressOwner(viewer))
      throw new AppError('UNAUTHENTICATED', 'Please sign in to keep your progress.');
    const lesson = await this.courses.findLesson(lessonId);
    const [course, section] = lesson
      ? await Promise.all([
          this.courses.findCourse(lesson.courseId),
          this.courses.findSection(lesson.sectionId),
        ])
      : [null, null];
    if (!lesson || !course || !section || (!course.published && viewer.kind !== 'admin'))
      throw new AppError('NOT_FOUND', NO_SUCH_LESSON);
    const lock = lessonLock(viewer, course, section.drip, lesson, this.clock());
    if (lock) throw new AppError('FORBIDDEN', lock.message);
    return { course, lesson };
  }

  private async record(
    viewer: Viewer,
    course: CourseDoc,
    lessonId: string,
    what: { complete: boolean; lessonIds?: string[]; position?: number },
  ) {
    const userId = progressOwner(viewer)!;
    const now = this.clock();
    let finishing = false;
    // The document as this write's compare-and-set found it (the last try is the one written).
    const seen: { before: ProgressDoc | null } = { before: null };
    const written = await this.progress.write(userId, course._id, (current) => {
      finishing = false;
      seen.before = current;
      const change: ProgressChange = { lastLessonId: lessonId, lastAt: now };
      if (what.position !== undefined) change.position = { lessonId, seconds: what.position };
      const completed = current?.completed ?? [];
      if (what.complete && !completed.includes(lessonId)) {
        change.completed = [...completed, lessonId];
        const all = what.lessonIds ?? [];
        const done = new Set(change.completed);
        if (!current?.completedAt && all.length > 0 && all.every((id) => done.has(id))) {
          change.completedAt = now;
          finishing = true;
        }
      }
      return change;
    });
    // Counted as members start and finish; an administrator trying the course is not a member.
    if (written && viewer.kind === 'member' && (written.created || finishing)) {
      await this.progress.addToCounts(course._id, {
        started: written.created ? 1 : 0,
        completed: finishing ? 1 : 0,
      });
    }
    if (written && viewer.kind === 'member') await this.tell(viewer, course, lessonId, seen.before, written);
    return { doc: written?.doc ?? null, finished: finishing };
  }

  /** Tells the figures what this write changed: a start, a lesson's first reach or completion. */
  private async tell(
    viewer: Extract<Viewer, { kind: 'member' }>,
    course: CourseDoc,
    lessonId: string,
    before: ProgressDoc | null,
    written: { doc: ProgressDoc; created: boolean },
  ): Promise<void> {
    const wasReached =
      before !== null && (before.completed.includes(lessonId) || before.positions[lessonId] !== undefined);
    const completed = !before?.completed.includes(lessonId) && written.doc.completed.includes(lessonId);
    if (!written.created && wasReached && !completed) return;
    await this.progress.told({
      courseId: course._id,
      clock: course.access === 'paid' ? viewer.paidSince : viewer.joinedAt,
      started: written.created,
      reached: wasReached ? null : lessonId,
      completed: completed ? lessonId : null,
    });
  }
}
