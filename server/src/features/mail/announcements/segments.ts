import type { Segment } from '@common/schemas/mail-members';
import { AppError } from '../../../lib/app-error';
import { courseLock, viewerOf } from '../../courses/access/access-rules';
import type { CourseDoc, CoursesRepository } from '../../courses/courses.repository';
import type { ProgressRepository } from '../../courses/progress/progress.repository';
import type { UserDoc, UsersRepository } from '../../users/users.repository';

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

  async count(segment: Segment): Promise<number> {
    if (segment.kind === 'everyone' || segment.kind === 'free' || segment.kind === 'paid')
      return this.users.count(memberFilter(segment));
    // A course's members are counted by reading them: the tier rule needs each one's tier.
    let total = 0;
    let after: string | null = null;
    for (;;) {
      const page = await this.page(segment, after, 1000);
      total += page.recipients.length;
      if (page.done) return total;
      after = page.last;
    }
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
    const allowed = users.filter(
      (user) =>
        user.role === 'user' && user.status === 'active' && courseLock(viewerOf(user), course) === null,
    );
    return {
      recipients: allowed.map(recipientOf),
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

const recipientOf = (user: UserDoc): Recipient => ({ userId: user._id, email: user.email, name: user.name });
