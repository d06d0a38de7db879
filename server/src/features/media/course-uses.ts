import { parseMediaPath } from './media-library';

/** A media library picture a course shows: its cover, or a picture in one of its lessons' text. */
export interface CoursePictureUse {
  /** As the course names it: `/media/image/…`. */
  url: string;
  course: { id: string; title: string };
  /** The lesson whose text shows it; null for the course's cover. */
  lesson: { id: string; title: string } | null;
}

/**
 * Every library picture the courses use, read afresh. The courses feature answers it; the
 * slideshow never plays these, and deleting one asks first.
 */
export type CoursePictureUses = () => Promise<CoursePictureUse[]>;

/** `the cover of the course “Yoga”`, `the lesson “Breathing” of the course “Yoga”`. */
export function describeUse(use: CoursePictureUse): string {
  return use.lesson
    ? `the lesson “${use.lesson.title}” of the course “${use.course.title}”`
    : `the cover of the course “${use.course.title}”`;
}

/** The library path (`image/sunset.jpg`) a `/media/…` URL names, or null. */
export function libraryPathOfUrl(url: string): string | null {
  if (!url.startsWith('/media/')) return null;
  let path: string;
  try {
    path = url
      .slice('/media/'.length)
      .split('?')[0]!
      .split('/')
      .map((part) => decodeURIComponent(part))
      .join('/');
  } catch {
    return null;
  }
  return parseMediaPath(path) ? path : null;
}
