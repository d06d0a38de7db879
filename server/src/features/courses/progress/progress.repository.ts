// Course progress and the courses' kept counts. Seams: the progress documents (one per member
// and course, compare-and-set on `rev`), the kept counts (`course_counts`), and the watchers told
// of each member's progress step (progress-steps.ts, the owner's figures).
import { createHash } from 'node:crypto';
import { type Collection, DuplicateKeyError, type Store, type StoredDoc } from '../../../store/store';
import type { ProgressStep, ProgressWatcher } from './progress-steps';

export type { ProgressForgotten, ProgressStep, ProgressWatcher } from './progress-steps';

/**
 * One member's progress in one course: a single document, so that a course page, a lesson page
 * and a saved position each read or write one document by id. Its id is made from the member and
 * the course (the same on every process), so the first write creates it exactly once.
 */
export interface ProgressDoc extends StoredDoc {
  userId: string;
  courseId: string;
  /** Completed lesson ids, in the order they were completed. */
  completed: string[];
  /** Playing position in seconds, by lesson id. */
  positions: Record<string, number>;
  lastLessonId: string | null;
  lastAt: Date;
  /** When every lesson of the course was first completed (the course's completed count went up then). */
  completedAt: Date | null;
  /** Goes up at every write; writes are compare-and-set on it, so none is lost to another. */
  rev: number;
}

/** Members who started and completed a course, kept as progress is written; `_id` is the course's. */
export interface CourseCountsDoc extends StoredDoc {
  started: number;
  completed: number;
}

export type ProgressChange = Partial<
  Pick<ProgressDoc, 'completed' | 'lastLessonId' | 'lastAt' | 'completedAt'>
> & {
  /** One lesson's playing position, written alone (`positions.<lesson id>`), never the whole map. */
  position?: { lessonId: string; seconds: number };
};

const MAX_TRIES = 40;

export function progressId(userId: string, courseId: string): string {
  return createHash('sha256').update(`progress:${userId}:${courseId}`).digest('hex').slice(0, 24);
}

/** The only code that reads or writes course progress and the courses' kept counts. */
export class ProgressRepository {
  readonly progress: Collection<ProgressDoc>;
  readonly counts: Collection<CourseCountsDoc>;

  private readonly watchers: ProgressWatcher[] = [];

  constructor(store: Store) {
    this.progress = store.collection<ProgressDoc>('course_progress');
    this.counts = store.collection<CourseCountsDoc>('course_counts');
  }

  async init(): Promise<void> {
    await this.progress.ensureIndex({ field: 'userId' });
    await this.progress.ensureIndex({ field: 'courseId' });
  }

  /** Registers a watcher told of every member's progress step (the owner's figures). */
  watch(watcher: ProgressWatcher): void {
    this.watchers.push(watcher);
  }

  /** Tells the watchers of a step written (each reports its own errors). */
  async told(step: ProgressStep): Promise<void> {
    await Promise.all(this.watchers.map((watcher) => watcher.stepped(step)));
  }

  find(userId: string, courseId: string): Promise<ProgressDoc | null> {
    return this.progress.findById(progressId(userId, courseId));
  }

  /** Every member's progress in a course, a batch at a time (the owner's course figures). */
  ofCourse(courseId: string): AsyncIterable<ProgressDoc[]> {
    return this.progress.findInBatches({ courseId }, { batchSize: 500 });
  }

  /** Every progress document, a batch at a time (the owner's figures filled once at first start). */
  everyInBatches(): AsyncIterable<ProgressDoc[]> {
    return this.progress.findInBatches({}, { batchSize: 1000 });
  }

  /**
   * A page of a course's progress in id order after `after` (a keyset: any page costs the same),
   * only completed ones when asked: mail to the members of a course reads them so.
   */
  pageOfCourse(
    courseId: string,
    { after, limit, completedOnly }: { after: string | null; limit: number; completedOnly: boolean },
  ): Promise<ProgressDoc[]> {
    return this.progress.find(
      {
        courseId,
        ...(after ? { _id: { $gt: after } } : {}),
        ...(completedOnly ? { completedAt: { $ne: null } } : {}),
      },
      { sort: { _id: 1 }, limit },
    );
  }

  /** The progress of several members at once (a batch of the new-lessons digest). */
  ofMembers(userIds: string[]): Promise<ProgressDoc[]> {
    return userIds.length ? this.progress.find({ userId: { $in: userIds } }) : Promise.resolve([]);
  }

  /** A member's progress in every course they started. */
  ofMember(userId: string): Promise<ProgressDoc[]> {
    return this.progress.find({ userId });
  }

  /**
   * Keeps a lesson's playing position and where the member left off, in one write: no read
   * before it and no compare-and-set. Each field is set alone (the position by its dotted path)
   * and none is worked out from what is stored, so this overwrites nothing another write changes,
   * and a completion's compare-and-set (on `rev`, which this leaves alone) never writes them
   * from a stale read. Answers the document as written, or null when the member has no progress
   * in the course yet (`write` then creates it, counting the start). With `onlyIfPlayed`, writes
   * only a lesson that has a position already (null otherwise): its first play goes through
   * `write`, whose compare-and-set sees what it changes (the owner's figures count it).
   */
  setPosition(
    userId: string,
    courseId: string,
    position: { lessonId: string; seconds: number },
    at: Date,
    { onlyIfPlayed = false }: { onlyIfPlayed?: boolean } = {},
  ): Promise<ProgressDoc | null> {
    return this.progress.updateOne(
      {
        _id: progressId(userId, courseId),
        ...(onlyIfPlayed ? { [`positions.${position.lessonId}`]: { $exists: true } } : {}),
      },
      {
        [`positions.${position.lessonId}`]: position.seconds,
        lastLessonId: position.lessonId,
        lastAt: at,
      },
    );
  }

  /**
   * Applies `change` to the member's progress in the course (creating it on the first write) by
   * compare-and-set, retried when another write came first. `change` sees the current document
   * (null before the first write) and answers the fields to set, or null to write nothing.
   * Answers the document written and whether this write created it.
   */
  async write(
    userId: string,
    courseId: string,
    change: (current: ProgressDoc | null) => ProgressChange | null,
  ): Promise<{ doc: ProgressDoc; created: boolean } | null> {
    const id = progressId(userId, courseId);
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const current = await this.progress.findById(id);
      const asked = change(current);
      if (!asked) return current ? { doc: current, created: false } : null;
      const { position, ...fields } = asked;
      if (!current) {
        const doc = {
          _id: id,
          userId,
          courseId,
          completed: [],
          positions: position ? { [position.lessonId]: position.seconds } : {},
          lastLessonId: null,
          lastAt: new Date(),
          completedAt: null,
          rev: 1,
          ...fields,
        };
        try {
          await this.progress.insertMany([doc]);
          return { doc: (await this.progress.findById(id))!, created: true };
        } catch (error) {
          if (error instanceof DuplicateKeyError) continue;
          throw error;
        }
      }
      const written = await this.progress.updateOne(
        { _id: id, rev: current.rev },
        {
          ...fields,
          ...(position ? { [`positions.${position.lessonId}`]: position.seconds } : {}),
          rev: current.rev + 1,
        },
      );
      if (written) return { doc: written, created: false };
    }
    throw new Error('Progress could not be saved: too many writes at once');
  }

  /** Adds to a course's kept counts (compare-and-set, retried). */
  async addToCounts(courseId: string, change: { started?: number; completed?: number }): Promise<void> {
    for (let attempt = 0; attempt < MAX_TRIES * 5; attempt++) {
      const current = await this.counts.findById(courseId);
      if (!current) {
        try {
          await this.counts.insertMany([
            {
              _id: courseId,
              started: Math.max(0, change.started ?? 0),
              completed: Math.max(0, change.completed ?? 0),
            },
          ]);
          return;
        } catch (error) {
          if (error instanceof DuplicateKeyError) continue;
          throw error;
        }
      }
      const next = {
        started: Math.max(0, current.started + (change.started ?? 0)),
        completed: Math.max(0, current.completed + (change.completed ?? 0)),
      };
      if (
        await this.counts.updateOne(
          { _id: courseId, started: current.started, completed: current.completed },
          next,
        )
      )
        return;
    }
    throw new Error('The course counts could not be updated: too many writes at once');
  }

  async countsOf(courseIds: string[]): Promise<Map<string, CourseCountsDoc>> {
    if (courseIds.length === 0) return new Map();
    const docs = await this.counts.find({ _id: { $in: courseIds } });
    return new Map(docs.map((doc) => [doc._id, doc]));
  }

  /**
   * Forgets a member's progress in every course (their account was deleted), taking them off
   * each course's kept numbers: `counted` says whether their progress was counted (members' is,
   * administrators' never is). A document is taken off the numbers only by the call that deleted
   * it, so two deletions at once never count a member off twice; the watchers are told of it with
   * the member's drip clock in that course (`clockOf`). Answers how many were removed.
   */
  async forgetMember(
    userId: string,
    { counted, clockOf }: { counted: boolean; clockOf: (courseId: string) => Promise<Date> },
  ): Promise<number> {
    let removed = 0;
    for (const doc of await this.progress.find({ userId })) {
      if (!(await this.progress.deleteById(doc._id))) continue;
      removed += 1;
      if (!counted) continue;
      await this.addToCounts(doc.courseId, { started: -1, completed: doc.completedAt ? -1 : 0 });
      const gone = {
        courseId: doc.courseId,
        clock: await clockOf(doc.courseId),
        reached: [...new Set([...doc.completed, ...Object.keys(doc.positions)])],
        completed: doc.completed,
      };
      await Promise.all(this.watchers.map((watcher) => watcher.forgot(gone)));
    }
    return removed;
  }

  /** Forgets a course's progress and counts (the course was deleted), a batch at a time. */
  async forgetCourse(courseId: string): Promise<number> {
    await this.counts.deleteById(courseId);
    let removed = 0;
    for (;;) {
      const batch = await this.progress.find({ courseId }, { limit: 500 });
      if (batch.length === 0) return removed;
      for (const doc of batch) if (await this.progress.deleteById(doc._id)) removed += 1;
    }
  }
}
