import type { AdminSection } from '@common/schemas/course-views';
import { describe, expect, it } from 'vitest';
import { moved, orderOf } from './outline-order';

const lesson = (id: string) => ({
  id,
  title: id,
  kind: 'text' as const,
  freePreview: false,
  durationMinutes: null,
  downloads: 0,
});
const sections: AdminSection[] = [
  { id: 's1', title: 'One', drip: { kind: 'none' }, lessons: [lesson('a'), lesson('b'), lesson('c')] },
  { id: 's2', title: 'Two', drip: { kind: 'none' }, lessons: [lesson('d')] },
];
const ids = (list: AdminSection[]) => orderOf(list).sections.map((s) => `${s.id}:${s.lessonIds.join('')}`);

describe('ordering the outline', () => {
  it('moves a section', () => {
    expect(
      ids(
        moved(sections, {
          type: 'SECTION',
          from: { list: 'sections', index: 1 },
          to: { list: 'sections', index: 0 },
        }),
      ),
    ).toEqual(['s2:d', 's1:abc']);
  });
  it('moves a lesson within its section and into another', () => {
    expect(
      ids(moved(sections, { type: 'LESSON', from: { list: 's1', index: 0 }, to: { list: 's1', index: 2 } })),
    ).toEqual(['s1:bca', 's2:d']);
    expect(
      ids(moved(sections, { type: 'LESSON', from: { list: 's1', index: 1 }, to: { list: 's2', index: 0 } })),
    ).toEqual(['s1:ac', 's2:bd']);
  });
  it('changes nothing for a drop outside any list', () => {
    expect(moved(sections, { type: 'LESSON', from: { list: 's1', index: 1 }, to: null })).toBe(sections);
  });
});
