import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_EXTENSIONS } from '@common/media';
import { CONTENT_TYPES } from '../../../http/send-file';
import { writeFileDurably } from '../../../lib/durable-file';
import { libraryPathOfUrl } from '../../media/course-uses';
import { inspectMediaFile, parseMediaPath } from '../../media/media-library';
import type { CoursesRepository } from '../courses.repository';
import { renderMarkdown } from '../markdown';
import type { CoursePicturesRepository } from './course-pictures.repository';

/** Where a course's picture is addressed: `/course-pictures/<course id>/<stored name>`. */
export const COURSE_PICTURE_PREFIX = '/course-pictures/';

const COURSE_ID = /^[0-9a-f]{24}$/;
/** A stored name: 32 hex digits of the SHA-256 of its origin and content, the original's extension. */
const STORED_NAME = /^[0-9a-f]{32}\.(?:jpg|jpeg|png|gif|webp|bmp|svg)$/;

/** A library picture's address as a course's text or cover may hold it. */
const LIBRARY_URL = /\/media\/image\/[^\s)"'<>?#]+/g;

/** `{ courseId, storedName }` of a `/course-pictures/…` address, or null. */
export function parseCoursePictureUrl(url: string): { courseId: string; storedName: string } | null {
  if (!url.startsWith(COURSE_PICTURE_PREFIX)) return null;
  const [courseId, storedName, ...rest] = url.slice(COURSE_PICTURE_PREFIX.length).split('/');
  if (rest.length || !courseId || !storedName) return null;
  return COURSE_ID.test(courseId) && STORED_NAME.test(storedName) ? { courseId, storedName } : null;
}

export const coursePictureUrl = (courseId: string, storedName: string) =>
  `${COURSE_PICTURE_PREFIX}${courseId}/${storedName}`;

export const contentTypeOfPicture = (storedName: string) =>
  CONTENT_TYPES[path.extname(storedName).slice(1)] ?? 'application/octet-stream';

/**
 * A course's pictures live with the course, not in the media library: when the owner picks a
 * library picture as a cover or puts one in a lesson's text, it is copied into the course's own
 * folder (`<lessons folder>/pictures/<course id>/`, private like the lesson files) and the course
 * names the copy. The library's file stays (it may be used elsewhere). A cover is served to
 * anyone (`/course-pictures/…`); a lesson's picture only through a signed link for that lesson
 * (`course-picture-serve.ts`).
 */
export class CoursePictures {
  readonly dir: string;

  constructor(
    lessonsDir: string,
    private readonly records: CoursePicturesRepository,
    /** The media library's folder right now (it can change while the server runs). */
    private readonly libraryFolder: () => Promise<string>,
  ) {
    this.dir = path.join(lessonsDir, 'pictures');
  }

  pathOf(courseId: string, storedName: string): string {
    if (!COURSE_ID.test(courseId) || !STORED_NAME.test(storedName))
      throw new Error(`Not a course picture: ${courseId}/${storedName}`);
    return path.join(this.dir, courseId, storedName);
  }

  /**
   * The course's own copy of a library picture (`/media/image/…`), made if needed; any other
   * address as it is. A library picture that is gone (or is not a picture) stays as it was named:
   * nothing is lost, and the next start tries again.
   */
  async adopt(courseId: string, url: string): Promise<string> {
    const relative = libraryPathOfUrl(url);
    const media = relative ? parseMediaPath(relative) : null;
    if (media?.category !== 'image') return url;
    const extension = path.extname(media.name).slice(1).toLowerCase();
    if (!MEDIA_EXTENSIONS.image.includes(extension)) return url;
    const check = await inspectMediaFile(await this.libraryFolder(), media);
    if (!check.ok) return url;
    const from = url.split('?')[0]!;
    const bytes = await readFile(check.absolute);
    const hash = createHash('sha256').update(`${from}\n`).update(bytes).digest('hex');
    const storedName = `${hash.slice(0, 32)}.${extension}`;
    // The name is its origin's and content's: a copy already there is this very picture.
    await writeFileDurably(this.pathOf(courseId, storedName), bytes, { createOnly: true });
    await this.records.remember(courseId, storedName, from);
    return coursePictureUrl(courseId, storedName);
  }

  /** A lesson's Markdown with every library picture it names replaced by the course's copy. */
  async adoptInMarkdown(courseId: string, markdown: string): Promise<string> {
    const urls = [...new Set(markdown.match(LIBRARY_URL) ?? [])];
    if (urls.length === 0) return markdown;
    const copies = new Map<string, string>();
    for (const url of urls) copies.set(url, await this.adopt(courseId, url));
    return markdown.replace(LIBRARY_URL, (url) => copies.get(url) ?? url);
  }

  /**
   * The move at start, for courses written before their pictures lived with them: every cover and
   * every lesson text naming a library picture gets the course's copy, and the text is rendered
   * again. The library's files stay. Safe to repeat and to run in every process at once: a
   * moved course names no library picture, and a copy's name is its content's.
   */
  async moveFromLibrary(courses: CoursesRepository): Promise<{ covers: number; lessons: number }> {
    const moved = { covers: 0, lessons: 0 };
    for (const course of await courses.allCourses()) {
      if (!course.coverUrl?.startsWith('/media/')) continue;
      const coverUrl = await this.adopt(course._id, course.coverUrl);
      if (coverUrl === course.coverUrl) continue;
      await courses.updateCourse(course._id, { coverUrl });
      moved.covers++;
    }
    for (const body of await courses.allBodies()) {
      if (!body.markdown.includes('/media/image/')) continue;
      const lesson = await courses.findLesson(body._id);
      if (!lesson) continue;
      const markdown = await this.adoptInMarkdown(lesson.courseId, body.markdown);
      if (markdown === body.markdown) continue;
      await courses.saveBody(body._id, markdown, await renderMarkdown(markdown));
      moved.lessons++;
    }
    return moved;
  }

  /** Takes a deleted course's pictures away. */
  async removeCourse(courseId: string): Promise<void> {
    if (!COURSE_ID.test(courseId)) return;
    await rm(path.join(this.dir, courseId), { recursive: true, force: true });
    await this.records.forgetCourse(courseId);
  }

  /** Every library picture a course's picture was copied from, with the course that has it. */
  async origins(): Promise<Array<{ courseId: string; url: string; from: string }>> {
    return (await this.records.all()).map((p) => ({
      courseId: p.courseId,
      url: coursePictureUrl(p.courseId, p.storedName),
      from: p.from,
    }));
  }
}
