import type { AdminCourse, AdminSection } from '@common/schemas/course-views';
import type { OutlineOrderBody } from '@common/schemas/courses';

export interface Move {
  type: 'SECTION' | 'LESSON';
  from: { list: string; index: number };
  to: { list: string; index: number } | null;
}

/**
 * The outline after one drag (or keyboard move): a section to another place, or a lesson to
 * another place in its section or in another one. A drop outside any list changes nothing.
 */
export function moved(sections: AdminSection[], move: Move): AdminSection[] {
  if (!move.to) return sections;
  if (move.type === 'SECTION') {
    const next = [...sections];
    const [section] = next.splice(move.from.index, 1);
    if (section) next.splice(move.to.index, 0, section);
    return next;
  }
  const source = sections.find((s) => s.id === move.from.list);
  const target = sections.find((s) => s.id === move.to!.list);
  if (!source || !target) return sections;
  const lesson = source.lessons[move.from.index];
  if (!lesson) return sections;
  return sections.map((section) => {
    let lessons = section.lessons;
    if (section.id === source.id) lessons = lessons.filter((_, i) => i !== move.from.index);
    if (section.id === target.id) {
      lessons = [...lessons];
      lessons.splice(move.to!.index, 0, lesson);
    }
    return lessons === section.lessons ? section : { ...section, lessons };
  });
}

/** What the server is told: every section and lesson, in their places. */
export function orderOf(sections: AdminSection[]): OutlineOrderBody {
  return { sections: sections.map((s) => ({ id: s.id, lessonIds: s.lessons.map((l) => l.id) })) };
}

export function sameOrder(a: AdminCourse['sections'], b: AdminCourse['sections']): boolean {
  return JSON.stringify(orderOf(a)) === JSON.stringify(orderOf(b));
}
