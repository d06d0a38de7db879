// The figures benchmark's site at the scale (a million members, ten million progress
// rows), seeded in minutes instead of hours: the members and their progress are written straight
// into the store file by SQL, the indexes built once after, and the roll-ups worked out from the
// same numbers the rows were made from. Seams: the catalogue (through the store), the rows (raw
// SQL on the closed store's file), the indexes and roll-ups (through the store again), and the
// check that reads a few rows back through the store (seed-figures-check.ts).
import path from 'node:path';
import { demoUsers } from '../../scripts/demo/users';
import { accessClockStart } from '../../server/src/features/courses/access/access-rules';
import { CoursesRepository } from '../../server/src/features/courses/courses.repository';
import {
  type CourseCountsDoc,
  ProgressRepository,
  progressId,
} from '../../server/src/features/courses/progress/progress.repository';
import {
  completedCounter,
  reachedCounter,
  startedCounter,
} from '../../server/src/features/figures/course-roll-ups';
import { FigureDaysRepository } from '../../server/src/features/figures/figure-days.repository';
import { countersOf, dayOf } from '../../server/src/features/figures/member-events';
import { hashPassword } from '../../server/src/features/users/passwords';
import { type UserDoc, UsersRepository } from '../../server/src/features/users/users.repository';
import { encodeDoc } from '../../server/src/store/sqlite/documents';
import { connect } from '../../server/src/store/sqlite/engine';
import { openEmbeddedStore } from '../../server/src/store/sqlite/store';
import { courseIndexOf, type SeededCourse, seedCatalogue } from './seed-courses';
import { checkRows } from './seed-figures-check';

/** Members per transaction (their progress rows go in the same one; demoUsers' numbering restarts per chunk). */
export const CHUNK = 50_000;
/** The seeding connection's page cache: the ids' unique index of ten million rows stays in memory. */
const SEED_CACHE_KIB = 2_000_000;
const FINISHED = 9;

type Counts = Record<string, number>;
type Access = Parameters<typeof accessClockStart>[1];

/** The id of member number `n`: 24 hex characters like every id, and the same in SQL (`printf('b0%022x', n)`). */
export const memberId = (n: number) => `b0${n.toString(16).padStart(22, '0')}`;

export interface FigureSiteOptions {
  dataDir: string;
  members: number;
  progressPerMember: number;
  courses: number;
  log: (line: string) => void;
}

/**
 * Seeds courses, `members` demo members (one argon2 hash) and `progressPerMember` progress rows
 * each (bench/support/seed-courses.ts `progressRow`, the same rows `seedCourseSite` inserts one
 * by one), the courses' kept counts and their roll-ups (`course_figures`, the backfill mark
 * written so the server does not redo it), then checks a few rows through the store.
 */
export async function seedFigureSite(
  options: FigureSiteOptions,
): Promise<{ courses: SeededCourse[]; memberDays: Map<string, Counts> }> {
  const nowMs = Math.floor(Date.now() / 1000) * 1000; // whole seconds: SQL writes the same ISO text
  const store = await openEmbeddedStore(options.dataDir, () => undefined);
  let courses: SeededCourse[];
  try {
    await new CoursesRepository(store).init();
    courses = await seedCatalogue(store, options.courses);
    // The tables (and their count triggers) made as the product makes them, still empty.
    await new UsersRepository(store).insertMany([]);
    await new ProgressRepository(store).progress.insertMany([]);
  } finally {
    await store.close();
  }
  const tallies = await writeRows(options, courses, nowMs);
  const reopened = await openEmbeddedStore(options.dataDir, () => undefined);
  try {
    const users = new UsersRepository(reopened);
    const progress = new ProgressRepository(reopened);
    let started = performance.now();
    await users.init();
    options.log(`members indexed in ${seconds(started)} s`);
    started = performance.now();
    await progress.init();
    options.log(`progress indexed in ${seconds(started)} s`);
    await progress.counts.insertMany(
      courses.map((course, i) => ({
        _id: course.id,
        started: tallies.started[i]!,
        completed: tallies.completed[i]!,
      })) as Array<CourseCountsDoc & { _id: string }>,
    );
    const rollUps = new FigureDaysRepository(reopened, 'course_figures');
    await rollUps.claimBackfill();
    await Promise.all(courses.map((course, i) => rollUps.add(course.id, tallies.rollUps[i]!)));
    await checkRows(options, courses, nowMs, users, progress, rollUps);
  } finally {
    await reopened.close();
  }
  return { courses, memberDays: tallies.memberDays };
}

interface Tallies {
  started: number[];
  completed: number[];
  rollUps: Counts[];
  /** The members' sign-ups and upgrades by day, as the server's first-start backfill counts them. */
  memberDays: Map<string, Counts>;
}

/** The members (encoded as the store encodes them) and their progress rows (built in SQL), on the closed store's file. */
async function writeRows(
  options: FigureSiteOptions,
  courses: SeededCourse[],
  nowMs: number,
): Promise<Tallies> {
  const db = connect(path.join(options.dataDir, 'db', 'site.sqlite'), {}, SEED_CACHE_KIB);
  // No journal while seeding (a seed cut short is seeded again); the store sets WAL when it opens.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.function('progress_id', { deterministic: true }, (userId: unknown, courseId: unknown) =>
    progressId(String(userId), String(courseId)),
  );
  db.exec(`
    CREATE TEMP TABLE seed_courses (idx INTEGER PRIMARY KEY, id TEXT, lessons INTEGER);
    CREATE TEMP TABLE seed_completed (idx INTEGER, cnt INTEGER, ids TEXT, PRIMARY KEY (idx, cnt));
    CREATE TEMP TABLE seed_lessons (idx INTEGER, pos INTEGER, id TEXT, PRIMARY KEY (idx, pos));
  `);
  const tallies: Tallies = {
    started: courses.map(() => 0),
    completed: courses.map(() => 0),
    rollUps: courses.map(() => ({})),
    memberDays: new Map(),
  };
  // Rows of (course, completed count or FINISHED): their lesson counters are added once at the end.
  const byShape = courses.map(() => new Array<number>(FINISHED + 1).fill(0));
  db.transaction(() => {
    for (const [idx, course] of courses.entries()) {
      db.prepare('INSERT INTO seed_courses VALUES (?, ?, ?)').run(idx, course.id, course.lessonIds.length);
      for (const [pos, id] of course.lessonIds.entries())
        db.prepare('INSERT INTO seed_lessons VALUES (?, ?, ?)').run(idx, pos, id);
      for (let cnt = 0; cnt < FINISHED; cnt++)
        db.prepare('INSERT INTO seed_completed VALUES (?, ?, ?)').run(
          idx,
          cnt,
          JSON.stringify(course.lessonIds.slice(0, cnt)),
        );
      db.prepare('INSERT INTO seed_completed VALUES (?, ?, ?)').run(
        idx,
        FINISHED,
        JSON.stringify(course.lessonIds),
      );
    }
  })();
  const insertUser = db.prepare('INSERT INTO users (id, doc, dates) VALUES (?, jsonb(?), ?)');
  // progressRow in SQL: members a..b-1, each with progressPerMember rows.
  const insertProgress = db.prepare(`
    WITH RECURSIVE m(n) AS (SELECT :a UNION ALL SELECT n + 1 FROM m WHERE n + 1 < :b),
      ks(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM ks WHERE k + 1 < :per),
      r AS (
        SELECT n, k, (n * 7 + k * 13) % :courses AS idx, (n + k) % 9 AS cnt, (n + k) % 23 = 0 AS fin,
          strftime('%Y-%m-%dT%H:%M:%fZ', :nowS - ((n * 31 + k) % 60) * 86400, 'unixepoch') AS at,
          printf('b0%022x', n) AS uid
        FROM m, ks)
    INSERT INTO course_progress (id, doc, dates)
    SELECT progress_id(r.uid, c.id), jsonb(json_object(
        'createdAt', at, 'updatedAt', at, 'userId', uid, 'courseId', c.id, 'completed', json(p.ids),
        'positions', json_object(l.id, ((n + k) % 500) + 0.5), 'lastLessonId', l.id, 'lastAt', at,
        'completedAt', CASE WHEN fin THEN at END, 'rev', 1)),
      CASE WHEN fin THEN '["createdAt","updatedAt","lastAt","completedAt"]' ELSE '["createdAt","updatedAt","lastAt"]' END
    FROM r JOIN seed_courses c ON c.idx = r.idx
      JOIN seed_completed p ON p.idx = r.idx AND p.cnt = CASE WHEN fin THEN ${FINISHED} ELSE r.cnt END
      JOIN seed_lessons l ON l.idx = r.idx AND l.pos = min(r.cnt, c.lessons - 1)
  `);
  const hash = await hashPassword('demo-password');
  const started = performance.now();
  for (let a = 0; a < options.members; a += CHUNK) {
    const b = Math.min(options.members, a + CHUNK);
    const batch = demoUsers(a, b - a, hash, nowMs);
    db.transaction(() => {
      for (const [j, user] of batch.entries()) {
        // As insertMany stores it: its own createdAt and updatedAt first, then the rest.
        const encoded = encodeDoc({ createdAt: new Date(), updatedAt: new Date(), ...user });
        insertUser.run(memberId(a + j), encoded.doc, encoded.dates);
        tallyMember(a + j, user, courses, options.progressPerMember, tallies, byShape);
        tallyDays(user as UserDoc, tallies.memberDays);
      }
      insertProgress.run({
        a,
        b,
        per: options.progressPerMember,
        courses: courses.length,
        nowS: nowMs / 1000,
      });
    })();
    if ((a / CHUNK) % 4 === 0 || b === options.members)
      options.log(`${b} members, ${b * options.progressPerMember} progress rows, ${seconds(started)} s`);
  }
  for (const [idx, course] of courses.entries()) {
    const into = tallies.rollUps[idx]!;
    for (const [shape, rows] of byShape[idx]!.entries()) {
      if (!rows) continue;
      // Reached: the completed lessons and the one with a position; all of them once finished.
      const completed = shape === FINISHED ? course.lessonIds.length : shape;
      const reached = shape === FINISHED ? course.lessonIds.length : shape + 1;
      for (let pos = 0; pos < Math.min(reached, course.lessonIds.length); pos++) {
        const lessonId = course.lessonIds[pos]!;
        into[reachedCounter(lessonId)] = (into[reachedCounter(lessonId)] ?? 0) + rows;
        if (pos < completed)
          into[completedCounter(lessonId)] = (into[completedCounter(lessonId)] ?? 0) + rows;
      }
    }
  }
  db.pragma('journal_mode = WAL');
  db.close();
  return tallies;
}

/** Adds member `n`'s progress rows to their courses' kept counts and starts (by the drip clock of each course's access). */
function tallyMember(
  n: number,
  user: Partial<Pick<UserDoc, 'createdAt' | 'paidSince'>>,
  courses: SeededCourse[],
  per: number,
  tallies: Tallies,
  byShape: number[][],
): void {
  for (let k = 0; k < per; k++) {
    const idx = courseIndexOf(n, k, courses.length);
    const finished = (n + k) % 23 === 0;
    tallies.started[idx]! += 1;
    if (finished) tallies.completed[idx]! += 1;
    byShape[idx]![finished ? FINISHED : (n + k) % 9]! += 1;
    const name = startedCounter(
      accessClockStart(
        { createdAt: user.createdAt!, paidSince: user.paidSince },
        courses[idx]!.access as Access,
      ),
    );
    const into = tallies.rollUps[idx]!;
    into[name] = (into[name] ?? 0) + 1;
  }
}

/** A member's sign-up (and upgrade, when paid) on the days backfill.ts counts them. */
function tallyDays(user: UserDoc, into: Map<string, Counts>): void {
  const add = (at: Date, counts: Counts) => {
    const day = into.get(dayOf(at)) ?? {};
    for (const [name, amount] of Object.entries(counts)) day[name] = (day[name] ?? 0) + amount;
    into.set(dayOf(at), day);
  };
  const joined: UserDoc = { ...user, membershipTier: 'free' };
  add(user.createdAt, countersOf(null, joined, false));
  if (user.membershipTier === 'paid') add(user.paidSince ?? user.createdAt, countersOf(joined, user, false));
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(0);
