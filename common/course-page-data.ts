import type { CourseCard, CourseDetail } from './schemas/course-views.ts';

/** The id of the JSON the server puts in a course page's HTML: the visitor's view, drawn without a request. */
export const COURSE_PAGE_DATA_ID = 'course-page-data';

export type CoursePageData =
  | { kind: 'catalogue'; courses: CourseCard[] }
  | { kind: 'course'; slug: string; course: CourseDetail | null };
