/**
 * What one progress write changed for the owner's figures (features/figures/course-roll-ups.ts):
 * told only of members' progress (administrators trying a course are never counted).
 */
export interface ProgressStep {
  courseId: string;
  /** When the member's drip clock for the course started, as of this write (accessClockStart). */
  clock: Date;
  /** This write made the member's progress in the course: they started it. */
  started: boolean;
  /** The lesson this write reached (completed or played) for the first time, or null. */
  reached: string | null;
  /** The lesson this write completed for the first time, or null. */
  completed: string | null;
}

/** A member's progress in a course, deleted with their account: what the figures take off again. */
export interface ProgressForgotten {
  courseId: string;
  /** Their drip clock for the course as the account is deleted (accessClockStart). */
  clock: Date;
  /** The lessons they had reached (completed or played), and those they had completed. */
  reached: string[];
  completed: string[];
}

/** Told of each member's progress step after it was written; it never fails the write. */
export interface ProgressWatcher {
  stepped(step: ProgressStep): Promise<void>;
  /** Told once a member's progress in a course was deleted with their account. */
  forgot(gone: ProgressForgotten): Promise<void>;
}
