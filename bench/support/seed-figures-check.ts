import { deepStrictEqual } from 'node:assert/strict';
import { demoUsers } from '../../scripts/demo/users';
import { accessClockStart } from '../../server/src/features/courses/access/access-rules';
import type { ProgressRepository } from '../../server/src/features/courses/progress/progress.repository';
import {
  completedCounter,
  reachedCounter,
  startedCounter,
} from '../../server/src/features/figures/course-roll-ups';
import type { FigureDaysRepository } from '../../server/src/features/figures/figure-days.repository';
import type { UsersRepository } from '../../server/src/features/users/users.repository';
import { decodeDoc, encodeDoc } from '../../server/src/store/sqlite/documents';
import { progressRow, type SeededCourse } from './seed-courses';
import { CHUNK, type FigureSiteOptions, memberId } from './seed-figures';

type Counts = Record<string, number>;
type Access = Parameters<typeof accessClockStart>[1];

/**
 * Reads a few members and all their progress back through the store and compares them with the
 * documents `seedCourseSite` would have inserted (encoded and decoded as the store does), and
 * one course's roll-up with its progress rows counted anew: a seed that differs fails here.
 */
export async function checkRows(
  options: FigureSiteOptions,
  courses: SeededCourse[],
  nowMs: number,
  users: UsersRepository,
  progress: ProgressRepository,
  rollUps: FigureDaysRepository,
): Promise<void> {
  const stored = (doc: { _id: string }) => {
    const { _id, ...fields } = doc;
    const encoded = encodeDoc(fields);
    return decodeDoc(_id, encoded.doc, encoded.dates);
  };
  const hash = (await users.findById(memberId(0)))?.password ?? '';
  for (const n of new Set([0, 1, 22, Math.floor(options.members / 2), options.members - 1])) {
    const user = await users.findById(memberId(n));
    const from = n - (n % CHUNK);
    const made = demoUsers(from, Math.min(CHUNK, options.members - from), hash, nowMs)[n - from];
    deepStrictEqual(user, stored({ _id: memberId(n), ...made! }), `member ${n} reads back as written`);
    for (let k = 0; k < options.progressPerMember; k++) {
      const row = progressRow(n, k, memberId(n), courses, nowMs);
      deepStrictEqual(await progress.find(row.userId, row.courseId), stored(row), `progress ${n}/${k}`);
    }
  }
  const course = courses[0]!;
  const counted: Counts = {};
  const plus = (name: string) => {
    counted[name] = (counted[name] ?? 0) + 1;
  };
  for await (const batch of progress.ofCourse(course.id)) {
    const members = new Map(
      (await users.find({ _id: { $in: batch.map((row) => row.userId) } })).map((user) => [user._id, user]),
    );
    for (const row of batch) {
      plus(startedCounter(accessClockStart(members.get(row.userId)!, course.access as Access)));
      for (const lessonId of new Set([...row.completed, ...Object.keys(row.positions)]))
        plus(reachedCounter(lessonId));
      for (const lessonId of row.completed) plus(completedCounter(lessonId));
    }
  }
  deepStrictEqual((await rollUps.one(course.id))?.counts, counted, 'a course’s roll-up counts its rows');
  options.log('checked: members, their progress and a course’s roll-up read back as the product writes them');
}
