import type { Segment } from '@common/schemas/mail-members';
import { ROLES, STATUSES, TIERS } from '@common/schemas/user';
import { AppError } from '../../../lib/app-error';
import { courseLock, viewerOf } from '../../courses/access/access-rules';
import type { CourseDoc, CoursesRepository } from '../../courses/courses.repository';
import type { ProgressRepository } from '../../courses/progress/progress.repository';
import type { UserDoc, UsersRepository } from '../../users/users.repository';
import type { PreferencesRepository } from '../preferences/preferences.repository';

export interface Recipient {
  userId: string;
  email: string;
  name: string;
}

/** One batch of a segment: who receives, and the keyset position to read the next batch after. */
export interface SegmentPage {
  recipients: Recipient[];
  /** The last id read (null: nothing read); the next page starts after it. */
  last: string | null;
  /** Fewer read than asked: the segment is done. */
  done: boolean;
}

/**
 * Who a segment holds, a page at a time in id order from a keyset (never an offset, never all at
 * once). Members only (never an administrator), active ones; the tier rule is checked here for
 * every recipient at sending time, so a paid-only mail never reaches a member who is free by then.
 */
export class Segments {
  constructor(
    private readonly users: UsersRepository,
    private readonly courses: CoursesRepository,
    private readonly progress: ProgressRepository,
    private readonly preferences: PreferencesRepository,
  ) {}

  /** The segment in words, after checking that it exists (a course that is gone is refused). */
  async label(segment: Segment): Promise<string> {
    switch (segment.kind) {
      case 'everyone':
        return 'Every member';
      case 'free':
        return 'Free members';
      case 'paid':
        return 'Paid members';
      case 'course':
        return `Members of ${(await this.course(segment.courseId)).title}`;
      case 'completed':
        return `Members who completed ${(await this.course(segment.courseId)).title}`;
    }
  }

  /**
   * How many members the segment's mail reaches now: its members less those who turned
   * announcements off or whose address stopped (`unwilling`). Exact, and on a million members
   * never a read of each one (bench/member-mail.bench.ts): see `members`.
   */
  async count(segment: Segment): Promise<number> {
    const [members, unwilling] = await Promise.all([this.members(segment), this.unwillingIn(segment)]);
    return members - unwilling;
  }

  /**
   * Everyone, free or paid: a count on one field's index (active accounts, or a tier: on SQLite a
   * kept count, on MongoDB a count of the index's keys) less the few among them that are not
   * members (administrators, suspended accounts), counted on the role and status indexes. A
   * course's members are counted by reading them: the tier rule needs each one's tier and bought
   * courses.
   */
  private async members(segment: Segment): Promise<number> {
    if (segment.kind === 'everyone' || segment.kind === 'free' || segment.kind === 'paid') {
      const [all, outsiders] = await Promise.all([
        this.users.count(
          segment.kind === 'everyone' ? { status: 'active' } : { membershipTier: segment.kind },
        ),
        // Among the active accounts, only administrators are not members: no suspended one is read.
        this.users.count(
          segment.kind === 'everyone'
            ? { ...NOT_MEMBERS.$or[0], ...within(segment) }
            : { ...NOT_MEMBERS, ...within(segment) },
        ),
      ]);
      return all - outsiders;
    }
    let total = 0;
    let after: string | null = null;
    for (;;) {
      const page = await this.page(segment, after, 1000);
      total += page.recipients.length;
      if (page.done) return total;
      after = page.last;
    }
  }

  /** Of the members who take no announcements (few: they chose so, or bounced), those in the segment. */
  private async unwillingIn(segment: Segment): Promise<number> {
    let total = 0;
    for await (const ids of this.preferences.unwilling('announcements', 1000))
      total +=
        segment.kind === 'everyone' || segment.kind === 'free' || segment.kind === 'paid'
          ? await this.users.count({ _id: { $in: ids }, ...MEMBERS, ...within(segment) })
          : await this.courseMembersAmong(segment, ids);
    return total;
  }

  /** How many of these members a course's segment holds (a few: their progress and records are read). */
  private async courseMembersAmong(
    segment: Extract<Segment, { courseId: string }>,
    userIds: string[],
  ): Promise<number> {
    const course = await this.courses.findCourse(segment.courseId);
    if (!course) return 0;
    const started = (await this.progress.ofMembers(userIds)).filter(
      (doc) => doc.courseId === course._id && (segment.kind === 'course' || doc.completedAt !== null),
    );
    if (started.length === 0) return 0;
    const users = await this.users.find({ _id: { $in: started.map((doc) => doc.userId) } });
    return users.filter((user) => allowed(user, course)).length;
  }

  async page(segment: Segment, after: string | null, limit: number): Promise<SegmentPage> {
    if (segment.kind === 'everyone' || segment.kind === 'free' || segment.kind === 'paid') {
      const users = await this.users.find(
        { ...memberFilter(segment), ...(after ? { _id: { $gt: after } } : {}) },
        { sort: { _id: 1 }, limit },
      );
      return {
        recipients: users.map(recipientOf),
        last: users.at(-1)?._id ?? after,
        done: users.length < limit,
      };
    }
    const course = await this.courses.findCourse(segment.courseId);
    if (!course) return { recipients: [], last: after, done: true };
    const progress = await this.progress.pageOfCourse(course._id, {
      after,
      limit,
      completedOnly: segment.kind === 'completed',
    });
    const users = await this.users.find({ _id: { $in: progress.map((doc) => doc.userId) } });
    return {
      recipients: users.filter((user) => allowed(user, course)).map(recipientOf),
      last: progress.at(-1)?._id ?? after,
      done: progress.length < limit,
    };
  }

  private async course(id: string): Promise<CourseDoc> {
    const course = await this.courses.findCourse(id);
    if (!course) throw new AppError('VALIDATION', 'That course does not exist: choose another segment.');
    return course;
  }
}

function memberFilter(segment: { kind: 'everyone' | 'free' | 'paid' }) {
  return {
    role: 'user',
    status: 'active',
    ...(segment.kind === 'everyone' ? {} : { membershipTier: segment.kind }),
  };
}

/** Members, as conditions no index answers (see `within`). */
const MEMBERS = {
  role: { $nin: ROLES.filter((role) => role !== 'user') },
  status: { $nin: STATUSES.filter((status) => status !== 'active') },
};

/** Accounts that are not members: never sent bulk mail, and few (administrators, suspended members). */
const NOT_MEMBERS = {
  $or: [
    { role: { $in: ROLES.filter((role) => role !== 'user') } },
    { status: { $in: STATUSES.filter((status) => status !== 'active') } },
  ],
};

/**
 * The segment as conditions a store cannot answer from an index (`$nin`): added to a filter that
 * an index answers (the few outsiders, a batch of ids), they are checked on those documents alone,
 * never chosen by the store's planner to walk a tier's hundreds of thousands of entries instead.
 */
function within(segment: { kind: 'everyone' | 'free' | 'paid' }) {
  return segment.kind === 'everyone'
    ? { status: { $nin: STATUSES.filter((status) => status !== 'active') } }
    : { membershipTier: { $nin: TIERS.filter((tier) => tier !== segment.kind) } };
}

/** A member who may open the course (the tier rule, bought courses included). */
const allowed = (user: UserDoc, course: CourseDoc) =>
  user.role === 'user' && user.status === 'active' && courseLock(viewerOf(user), course) === null;

const recipientOf = (user: UserDoc): Recipient => ({ userId: user._id, email: user.email, name: user.name });
