import { lessonLock } from './access/access-rules';
import type { CoursesRepository } from './courses.repository';

/** A page of the courses a visitor may open: its path and when it last changed. */
export interface VisitorPage {
  path: string;
  updatedAt: Date;
}

const VISITOR = { kind: 'visitor', preview: null } as const;

/**
 * Every course page and lesson page a visitor (signed out) may open now, for search engines: each
 * published course in the catalogue's order, then its lessons that the access rules leave open to
 * a visitor (a public course's open sections, any course's free previews). Read a batch at a time,
 * never every lesson at once.
 */
export async function* visitorPages(
  repository: CoursesRepository,
  now = new Date(),
): AsyncIterable<VisitorPage> {
  for (const course of await repository.publishedCourses()) {
    const coursePath = `/courses/${encodeURIComponent(course.slug)}`;
    yield { path: coursePath, updatedAt: course.updatedAt };
    const drips = new Map(
      (await repository.sectionsOf(course._id)).map((section) => [section._id, section.drip]),
    );
    // Outside a public course only free previews can be open: the store is asked for those alone.
    const filter = course.access === 'public' ? {} : { freePreview: true as const };
    for await (const batch of repository.lessonsInBatches(course._id, filter)) {
      for (const lesson of batch) {
        const drip = drips.get(lesson.sectionId);
        if (!drip || lessonLock(VISITOR, course, drip, lesson, now)) continue;
        yield {
          path: `${coursePath}/lessons/${encodeURIComponent(lesson._id)}`,
          updatedAt: lesson.updatedAt,
        };
      }
    }
  }
}
