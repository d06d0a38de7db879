import type {
  ContinueEntry,
  CourseCard,
  CourseDetail,
  CoursePrice,
  LessonFileLink,
  LessonView,
  MemberHome,
  UpgradeOfferSettings,
} from '@common/schemas/course-views';
import { isUpgradeLink } from '@common/schemas/courses';
import { AppError } from '../../lib/app-error';
import { progressOwner, type Viewer } from './access/access-rules';
import {
  type CourseTree,
  cardOf,
  continueLesson,
  detailOf,
  lessonKind,
  placeLessons,
  progressIn,
  treeOf,
  viewerInfo,
} from './course-views';
import type { CourseDoc, CoursesRepository, LessonFileRef } from './courses.repository';
import type { FileLinks } from './lesson-files/file-links';
import { withPictureCopies, withSignedPictures } from './markdown';
import type { ProgressDoc, ProgressRepository } from './progress/progress.repository';
import type { ViewerContext } from './viewer-context';

export const NO_SUCH_COURSE = 'No such course.';
export const NO_SUCH_LESSON = 'No such lesson.';

/** What visitors and members read: the catalogue, a course's outline, a lesson, the member's home. */
export class CoursesService {
  constructor(
    private readonly courses: CoursesRepository,
    private readonly progress: ProgressRepository,
    private readonly links: FileLinks,
    /** The `srcset` of media library pictures' resized copies by URL (covers, lesson pictures), once made. */
    private readonly pictureCopies: (urls: string[]) => Promise<Map<string, string>> = async () => new Map(),
    /** The course price when the course is sold on its own (the payments feature knows), else null. */
    private readonly coursePrice: (courseId: string) => Promise<CoursePrice | null> = async () => null,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async cards(who: ViewerContext): Promise<CourseCard[]> {
    const [courses, mine] = await Promise.all([
      this.courses.publishedCourses(),
      this.progressByCourse(who.viewer),
    ]);
    return this.withCovers(courses.map((course) => cardOf(course, who.viewer, mine.get(course._id) ?? null)));
  }

  /** Gives each card with a cover the copies a screen picks from: a phone never loads the original. */
  private async withCovers<T extends CourseCard>(cards: T[]): Promise<T[]> {
    const copies = await this.pictureCopies(cards.flatMap((card) => (card.coverUrl ? [card.coverUrl] : [])));
    return cards.map((card) => {
      const srcset = card.coverUrl ? copies.get(card.coverUrl) : undefined;
      return srcset ? { ...card, coverSrcset: srcset } : card;
    });
  }

  /** A published course (or any, for an administrator) by its address, with its sections and lessons. */
  async tree(slug: string, who: Pick<ViewerContext, 'admin'>): Promise<CourseTree> {
    const course = await this.courses.findCourseBySlug(slug);
    if (!course || (!course.published && !who.admin)) throw new AppError('NOT_FOUND', NO_SUCH_COURSE);
    return this.treeOfCourse(course);
  }

  async treeOfCourse(course: CourseDoc): Promise<CourseTree> {
    const [sections, lessons] = await Promise.all([
      this.courses.sectionsOf(course._id),
      this.courses.lessonsOf(course._id),
    ]);
    return treeOf(course, sections, lessons);
  }

  async course(slug: string, who: ViewerContext): Promise<CourseDetail> {
    const tree = await this.tree(slug, who);
    const progress = await this.progressOf(who.viewer, tree.course._id);
    const [detail] = await this.withCovers([detailOf(tree, who.viewer, progress, this.clock())]);
    if (detail!.lock?.reason === 'upgrade')
      [detail!.offer, detail!.coursePrice] = await Promise.all([this.offer(), this.coursePrice(detail!.id)]);
    return detail!;
  }

  async lesson(slug: string, lessonId: string, who: ViewerContext): Promise<LessonView> {
    const tree = await this.tree(slug, who);
    const { viewer } = who;
    const now = this.clock();
    const placed = placeLessons(tree, viewer, now);
    const at = placed.findIndex((p) => p.lesson._id === lessonId);
    const here = placed[at];
    if (!here) throw new AppError('NOT_FOUND', NO_SUCH_LESSON);
    const { lesson, section, lock } = here;
    const progress = await this.progressOf(viewer, tree.course._id);
    const previous = placed[at - 1];
    const next = placed[at + 1];
    const view: LessonView = {
      id: lesson._id,
      title: lesson.title,
      kind: lessonKind(lesson),
      durationMinutes: lesson.durationMinutes,
      freePreview: lesson.freePreview,
      course: {
        id: tree.course._id,
        slug: tree.course.slug,
        title: tree.course.title,
        access: tree.course.access,
      },
      section: { id: section._id, title: section.title },
      lock,
      html: '',
      media: null,
      downloads: [],
      position: 0,
      completed: progress?.completed.includes(lesson._id) ?? false,
      previous: previous ? { id: previous.lesson._id, title: previous.lesson.title } : null,
      next: next ? { id: next.lesson._id, title: next.lesson.title, locked: next.lock !== null } : null,
      progress:
        viewer.kind === 'visitor'
          ? null
          : progressIn(
              tree.lessons.map((l) => l._id),
              progress,
            ),
      viewer: viewerInfo(viewer),
      offer: lock?.reason === 'upgrade' ? await this.offer() : null,
    };
    // A locked lesson is its outline entry only: no text, no file, no link.
    if (lock) return view;
    const link = (file: LessonFileRef): LessonFileLink => ({
      id: file.id,
      name: file.name,
      size: file.size,
      mime: file.mime,
      ...this.links.sign(file.id, file.name, who.session, now.getTime()),
    });
    // The course's own pictures get links signed for this viewer, like the lesson's files.
    view.html = withSignedPictures(
      await withPictureCopies((await this.courses.findBody(lesson._id))?.html ?? '', this.pictureCopies),
      (storedName) => this.links.signPicture(lesson._id, storedName, who.session, now.getTime()).url,
    );
    view.media = lesson.media ? { ...link(lesson.media), kind: lesson.media.kind } : null;
    view.downloads = lesson.downloads.map(link);
    view.position = progress?.positions[lesson._id] ?? 0;
    return view;
  }

  /** The member's home: where they left off, their courses, and what the paid tier opens. */
  async home(who: ViewerContext, tier: 'free' | 'paid'): Promise<MemberHome> {
    const { viewer } = who;
    const [courses, mine, settings] = await Promise.all([
      this.courses.publishedCourses(),
      this.progressByCourse(viewer),
      this.offer(),
    ]);
    const cards = await this.withCovers(
      courses.map((course) => cardOf(course, viewer, mine.get(course._id) ?? null)),
    );
    const lastAt = (card: CourseCard) => mine.get(card.id)?.lastAt.getTime() ?? 0;
    const open = cards
      .filter((card) => card.status !== 'locked')
      .sort(
        (a, b) => Number(b.status === 'continue') - Number(a.status === 'continue') || lastAt(b) - lastAt(a),
      );
    const latest = [...mine.values()]
      .filter((p) => p.lastLessonId && open.some((card) => card.id === p.courseId))
      .sort((a, b) => b.lastAt.getTime() - a.lastAt.getTime())[0];
    const course = latest && courses.find((c) => c._id === latest.courseId);
    return {
      tier,
      continue: course && latest ? await this.continueEntry(course, latest, viewer) : null,
      courses: open,
      locked: cards.filter((card) => card.status === 'locked'),
      offer: tier === 'free' && viewer.kind !== 'admin' ? settings : null,
      bought: open
        .filter((card) => viewer.kind === 'member' && viewer.bought?.includes(card.id))
        .map(({ id, slug, title }) => ({ id, slug, title })),
    };
  }

  /** The last lesson the member was on, or, once it is completed, the next open one. */
  private async continueEntry(
    course: CourseDoc,
    progress: ProgressDoc,
    viewer: Viewer,
  ): Promise<ContinueEntry | null> {
    const tree = await this.treeOfCourse(course);
    const placed = placeLessons(tree, viewer, this.clock());
    const last = placed.find((p) => p.lesson._id === progress.lastLessonId && !p.lock);
    const unfinished = last && !progress.completed.includes(last.lesson._id);
    const target = unfinished
      ? { id: last.lesson._id, title: last.lesson.title }
      : continueLesson(placed, progress);
    if (!target) return null;
    return {
      course: { slug: course.slug, title: course.title },
      lesson: target,
      position: progress.positions[target.id] ?? 0,
      progress: progressIn(
        tree.lessons.map((l) => l._id),
        progress,
      ),
    };
  }

  async offer(): Promise<UpgradeOfferSettings | null> {
    const settings = await this.courses.readSettings();
    if (!settings || (!settings.upgradeText && !settings.upgradeLinkUrl)) return null;
    return {
      upgradeText: settings.upgradeText,
      upgradeLinkLabel: settings.upgradeLinkLabel,
      // A link saved before the rule was strict (`//evil.example`) is not served.
      upgradeLinkUrl: isUpgradeLink(settings.upgradeLinkUrl) ? settings.upgradeLinkUrl : '',
    };
  }

  private async progressOf(viewer: Viewer, courseId: string): Promise<ProgressDoc | null> {
    const owner = progressOwner(viewer);
    return owner ? this.progress.find(owner, courseId) : null;
  }

  private async progressByCourse(viewer: Viewer): Promise<Map<string, ProgressDoc>> {
    const owner = progressOwner(viewer);
    if (!owner) return new Map();
    return new Map((await this.progress.ofMember(owner)).map((doc) => [doc.courseId, doc]));
  }
}
