import { describe, expect, it } from 'vitest';
import type { CourseDoc, LessonDoc, SectionDoc } from '../../courses/courses.repository';
import { type CourseOutline, digestFor, digestMarkdown, lessonsOpened } from './new-lessons';

/* Which lessons open for a member on a given day, with a fake clock (the window's ends). */

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date('2026-03-01T09:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);
const doc = { createdAt: at(-30), updatedAt: at(-30) };

function outline(access: CourseDoc['access'], id = 'c1'.padEnd(24, '0')): CourseOutline {
  const course = {
    ...doc,
    _id: id,
    title: `Course ${access}`,
    slug: `course-${access}`,
    access,
    published: true,
  } as CourseDoc;
  const section = (sid: string, drip: SectionDoc['drip']) =>
    ({ ...doc, _id: sid, courseId: id, title: sid, position: 0, drip }) as SectionDoc;
  const lesson = (lid: string, sid: string, createdAt = doc.createdAt) =>
    ({
      ...doc,
      createdAt,
      _id: lid,
      courseId: id,
      sectionId: sid,
      title: `Lesson ${lid}`,
      freePreview: false,
    }) as LessonDoc;
  return {
    course,
    sections: [
      {
        section: section('start', { kind: 'none' }),
        lessons: [lesson('intro', 'start'), lesson('added', 'start', at(2.5))],
      },
      {
        section: section('week', { kind: 'days', days: 7 }),
        lessons: [lesson('week1', 'week'), lesson('week2', 'week')],
      },
      { section: section('date', { kind: 'date', date: '2026-03-05' }), lessons: [lesson('dated', 'date')] },
    ],
  };
}

const member = (tier: 'free' | 'paid', joinedDaysAgo: number) => ({
  _id: 'm'.padEnd(24, '1'),
  role: 'user' as const,
  membershipTier: tier,
  createdAt: at(-joinedDaysAgo),
  paidSince: null,
});
const titles = (lessons: LessonDoc[]) => lessons.map((lesson) => lesson._id);

describe('lessons that open in a day', () => {
  it('a section dripping 7 days after joining opens on the 7th day, and only that day', () => {
    const course = outline('members');
    const joined6DaysAgo = member('free', 6.5);
    expect(titles(lessonsOpened(joined6DaysAgo, course, at(0), at(1)))).toEqual(['week1', 'week2']);
    expect(titles(lessonsOpened(joined6DaysAgo, course, at(-1), at(0)))).toEqual([]);
    expect(titles(lessonsOpened(joined6DaysAgo, course, at(1), at(2)))).toEqual([]);
  });

  it('a section opening on a date opens that day for everyone; a lesson the owner adds opens when added', () => {
    const course = outline('members');
    const old = member('free', 100);
    expect(titles(lessonsOpened(old, course, at(3), at(4)))).toEqual(['dated']);
    expect(titles(lessonsOpened(old, course, at(2), at(3)))).toEqual(['added']);
  });

  it('never counts a paid course for a free member; counts it for a paid one', () => {
    const course = outline('paid');
    expect(lessonsOpened(member('free', 100), course, at(2), at(4))).toEqual([]);
    expect(titles(lessonsOpened(member('paid', 100), course, at(2), at(4)))).toEqual(['added', 'dated']);
  });

  it('one digest per member: only the courses they started, several courses in one mail', () => {
    const a = outline('members', 'a'.repeat(24));
    const b = outline('public', 'b'.repeat(24));
    const c = outline('members', 'c'.repeat(24));
    const someone = member('free', 100);
    const digest = digestFor(someone, new Set([a.course._id, b.course._id]), [a, b, c], at(2), at(4));
    expect(digest.map((entry) => entry.course._id)).toEqual([a.course._id, b.course._id]);
    const text = digestMarkdown('Ada', digest);
    expect(text).toContain('Hello Ada');
    expect(text).toContain('- [Lesson added](/courses/course-members/lessons/added)');
    expect(text.match(/^## /gm)).toHaveLength(2);
  });
});
