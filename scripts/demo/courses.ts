import type { CourseAccess } from '@common/courses';
import type { Drip } from '@common/schemas/courses';
import {
  type CourseDoc,
  CoursesRepository,
  type LessonDoc,
  type SectionDoc,
} from '../../server/src/features/courses/courses.repository';
import { renderMarkdown } from '../../server/src/features/courses/markdown';
import { ProgressRepository } from '../../server/src/features/courses/progress/progress.repository';
import { newId } from '../../server/src/store/new-id';
import type { NewDoc, Store, StoredDoc } from '../../server/src/store/store';

type Row<T extends StoredDoc> = NewDoc<T> & Partial<StoredDoc>;

interface DemoLesson {
  title: string;
  minutes: number;
  preview?: boolean;
  text: string;
}
interface DemoSection {
  title: string;
  drip: Drip;
  lessons: DemoLesson[];
}
interface DemoCourse {
  title: string;
  slug: string;
  access: CourseAccess;
  summary: string;
  sections: DemoSection[];
}

const text = (topic: string) =>
  `## ${topic}\n\nFind a quiet place and ten minutes. Read this through once, then do it.\n\n` +
  `1. Write down where you are today, in one sentence.\n2. Write down where you want to be in a year.\n3. Name **one** step you can take this week.\n\n` +
  `> Small, deliberate steps beat big intentions.\n\nWhen you are done, mark the lesson complete and continue.`;

/** The demo catalogue `npm run seed -- --courses` adds: one course of each kind of access. */
export const DEMO_COURSES: DemoCourse[] = [
  {
    title: 'Foundations',
    slug: 'foundations',
    access: 'public',
    summary: 'Build the daily habits that everything else stands on. Open to everyone.',
    sections: [
      {
        title: 'Start here',
        drip: { kind: 'none' },
        lessons: [
          { title: 'Welcome', minutes: 4, text: text('Welcome') },
          { title: 'Your morning anchor', minutes: 8, text: text('Your morning anchor') },
        ],
      },
      {
        title: 'Keeping it going',
        drip: { kind: 'none' },
        lessons: [{ title: 'When a day goes wrong', minutes: 6, text: text('When a day goes wrong') }],
      },
    ],
  },
  {
    title: 'Blueprint',
    slug: 'blueprint',
    access: 'members',
    summary: 'Map where you are, where you want to be, and the path between. For every member.',
    sections: [
      {
        title: 'Where you are',
        drip: { kind: 'none' },
        lessons: [
          { title: 'The honest inventory', minutes: 12, preview: true, text: text('The honest inventory') },
          { title: 'Strengths you forget', minutes: 9, text: text('Strengths you forget') },
        ],
      },
      {
        title: 'Where you are going',
        drip: { kind: 'days', days: 7 },
        lessons: [
          { title: 'A year from now', minutes: 10, text: text('A year from now') },
          { title: 'The path between', minutes: 14, text: text('The path between') },
        ],
      },
    ],
  },
  {
    title: 'The Architect Programme',
    slug: 'the-architect-programme',
    access: 'paid',
    summary: 'Twelve weeks of guided work, one section a week, with the full community.',
    sections: [1, 2, 3].map((week) => ({
      title: `Week ${week}`,
      drip: week === 1 ? ({ kind: 'none' } as const) : ({ kind: 'days', days: (week - 1) * 7 } as const),
      lessons: [
        {
          title: `Week ${week}: the plan`,
          minutes: 15,
          preview: week === 1,
          text: text(`Week ${week}: the plan`),
        },
        { title: `Week ${week}: the practice`, minutes: 20, text: text(`Week ${week}: the practice`) },
        { title: `Week ${week}: looking back`, minutes: 8, text: text(`Week ${week}: looking back`) },
      ],
    })),
  },
];

/**
 * Documents of `count` published demo courses of `sections` × `lessons` each, for seeding
 * straight into a store (the benchmark's 100 courses): access cycles public, members, paid.
 */
export function demoCourseRows(
  count: number,
  sections: number,
  lessons: number,
): { courses: Row<CourseDoc>[]; sections: Row<SectionDoc>[]; lessons: Row<LessonDoc>[] } {
  const rows = {
    courses: [] as Row<CourseDoc>[],
    sections: [] as Row<SectionDoc>[],
    lessons: [] as Row<LessonDoc>[],
  };
  const access: CourseAccess[] = ['public', 'members', 'paid'];
  for (let c = 0; c < count; c++) {
    const courseId = newId();
    rows.courses.push({
      _id: courseId,
      title: `Course ${c + 1}`,
      slug: `course-${c + 1}`,
      summary: `Demo course number ${c + 1}.`,
      coverUrl: null,
      access: access[c % 3]!,
      published: true,
      position: c + 1,
      lessonCount: sections * lessons,
      totalMinutes: sections * lessons * 10,
      demo: true,
    });
    for (let s = 0; s < sections; s++) {
      const sectionId = newId();
      rows.sections.push({
        _id: sectionId,
        courseId,
        title: `Part ${s + 1}`,
        position: s + 1,
        drip: { kind: 'none' },
      });
      for (let l = 0; l < lessons; l++)
        rows.lessons.push({
          _id: newId(),
          courseId,
          sectionId,
          title: `Lesson ${s + 1}.${l + 1}`,
          position: l + 1,
          freePreview: s === 0 && l === 0,
          durationMinutes: 10,
          media: null,
          downloads: [],
          rev: 0,
        });
    }
  }
  return rows;
}

/** Adds the demo catalogue (marked `demo`); answers how many courses were added (0 when they are there already). */
export async function addDemoCourses(store: Store): Promise<number> {
  const repository = new CoursesRepository(store);
  await repository.init();
  let added = 0;
  let position = ((await repository.allCourses()).at(-1)?.position ?? 0) + 1;
  for (const course of DEMO_COURSES) {
    if (await repository.findCourseBySlug(course.slug)) continue;
    const lessonCount = course.sections.reduce((n, s) => n + s.lessons.length, 0);
    const totalMinutes = course.sections.reduce(
      (n, s) => n + s.lessons.reduce((m, l) => m + l.minutes, 0),
      0,
    );
    const saved = await repository.insertCourse({
      title: course.title,
      slug: course.slug,
      summary: course.summary,
      coverUrl: null,
      access: course.access,
      published: true,
      position: position++,
      lessonCount,
      totalMinutes,
      demo: true,
    });
    for (const [s, section] of course.sections.entries()) {
      const placed = await repository.insertSection({
        courseId: saved._id,
        title: section.title,
        position: s + 1,
        drip: section.drip,
      });
      for (const [l, lesson] of section.lessons.entries()) {
        const row = await repository.insertLesson({
          courseId: saved._id,
          sectionId: placed._id,
          title: lesson.title,
          position: l + 1,
          freePreview: lesson.preview ?? false,
          durationMinutes: lesson.minutes,
          media: null,
          downloads: [],
          rev: 0,
        });
        await repository.saveBody(row._id, lesson.text, await renderMarkdown(lesson.text));
      }
    }
    added += 1;
  }
  return added;
}

/** Removes every demo course with its sections, lessons, texts, progress and counts; answers how many. */
export async function removeDemoCourses(store: Store): Promise<number> {
  const repository = new CoursesRepository(store);
  const progress = new ProgressRepository(store);
  await Promise.all([repository.init(), progress.init()]);
  let removed = 0;
  for (const course of await repository.courses.find({ demo: true })) {
    for (const lesson of await repository.lessonsOf(course._id)) await repository.deleteLesson(lesson._id);
    for (const section of await repository.sectionsOf(course._id))
      await repository.deleteSection(section._id);
    await progress.forgetCourse(course._id);
    if (await repository.deleteCourse(course._id)) removed += 1;
  }
  return removed;
}
