import type { Filter } from '../../store/store';
import { courseLock, sectionLock } from './access/access-rules';
import type { CourseDoc, CoursesRepository } from './courses.repository';

/** A page of the courses a visitor may open: its path and when it last changed. */
export interface VisitorPage {
  path: string;
  updatedAt: Date;
}

const VISITOR = { kind: 'visitor', preview: null } as const;

/** A published course and which of its lessons a visitor may open, as a store filter. */
interface OpenCourse {
  course: CourseDoc;
  filter: Filter;
  /** Its page and its open lessons. */
  pages: number;
}

/**
 * Every course page and lesson page a visitor (signed out) may open now, for search engines: each
 * published course in the catalogue's order, then its lessons the access rules leave open to a
 * visitor (a public course's open sections, any course's free previews). The rules become a store
 * filter per course, so the store counts them without reading them, and a later sitemap file
 * starts part-way through without reading what comes before it.
 */
export class VisitorPages {
  constructor(private readonly repository: CoursesRepository) {}

  async count(now = new Date()): Promise<number> {
    return (await this.openCourses(now)).reduce((sum, open) => sum + open.pages, 0);
  }

  /** The pages from the `from`-th (0 is the first course's page) on, a batch of lessons at a time. */
  async *pages(from = 0, now = new Date()): AsyncIterable<VisitorPage> {
    let skip = from;
    for (const { course, filter, pages } of await this.openCourses(now)) {
      if (skip >= pages) {
        skip -= pages;
        continue;
      }
      const coursePath = `/courses/${encodeURIComponent(course.slug)}`;
      if (skip === 0) yield { path: coursePath, updatedAt: course.updatedAt };
      else skip -= 1;
      for await (const batch of this.repository.lessonsInBatches(course._id, filter, skip))
        for (const lesson of batch)
          yield {
            path: `${coursePath}/lessons/${encodeURIComponent(lesson._id)}`,
            updatedAt: lesson.updatedAt,
          };
      skip = 0;
    }
  }

  private async openCourses(now: Date): Promise<OpenCourse[]> {
    const open: OpenCourse[] = [];
    for (const course of await this.repository.publishedCourses()) {
      const filter = await this.openLessons(course, now);
      open.push({ course, filter, pages: 1 + (await this.repository.countLessons(course._id, filter)) });
    }
    return open;
  }

  /** The course's lessons a visitor may open (access/access-rules.ts decides), as a filter. */
  private async openLessons(course: CourseDoc, now: Date): Promise<Filter> {
    const previews = { freePreview: true };
    if (courseLock(VISITOR, course)) return previews;
    const sections = await this.repository.sectionsOf(course._id);
    const open = sections.filter((section) => !sectionLock(VISITOR, course, section.drip, now));
    if (open.length === sections.length) return {};
    if (open.length === 0) return previews;
    return { $or: [{ sectionId: { $in: open.map((section) => section._id) } }, previews] };
  }
}
