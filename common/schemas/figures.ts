import { z } from 'zod';
import type { DataAnswer } from './envelopes';

/** The steps a period's figures are shown in. */
export const FIGURE_STEPS = ['day', 'week', 'month'] as const;
export type FigureStep = (typeof FIGURE_STEPS)[number];

/** A period spans at most this many days (ten years and their leap days). */
export const MAX_PERIOD_DAYS = 3653;

const DAY_MS = 24 * 60 * 60 * 1000;
const dayText = z
  .string({ error: 'Dates are written YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are written YYYY-MM-DD')
  .refine((text) => {
    const time = Date.parse(`${text}T00:00:00Z`);
    // Date.parse moves 2026-02-30 to 2026-03-02: only a date that reads back the same exists.
    return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text;
  }, 'That date does not exist');

/** Days between two YYYY-MM-DD dates, both counted. */
export function daysSpanned(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** GET /api/admin/figures/*: a period of whole days (UTC, both ends included) and a step. */
export const figuresQuery = z
  .object({
    from: dayText,
    to: dayText,
    step: z.enum(FIGURE_STEPS, { error: 'The step is day, week or month' }).default('day'),
  })
  .refine((query) => query.from <= query.to, 'The period ends before it starts.')
  .refine(
    (query) => daysSpanned(query.from, query.to) <= MAX_PERIOD_DAYS,
    'A period spans at most ten years.',
  );
export type FiguresQuery = z.output<typeof figuresQuery>;

/** Members at the end of a step, and what happened during it. */
export interface MembersPoint {
  /** The step's first day (YYYY-MM-DD). */
  start: string;
  total: number;
  paid: number;
  free: number;
  signups: number;
  upgrades: number;
  cancellations: number;
}

/** A period's members in one line: at its end, and what happened during it. */
export interface MembersSummary {
  total: number;
  paid: number;
  free: number;
  signups: number;
  upgrades: number;
  cancellations: number;
}

export interface MembersFigures {
  from: string;
  to: string;
  step: FigureStep;
  points: MembersPoint[];
  period: MembersSummary;
  /** The period of the same length just before, to compare with. */
  previous: MembersSummary;
}

/** Money in one currency, amounts in its minor units (cents). */
export interface MoneyFigures {
  currency: string;
  /** Monthly recurring revenue at the period's end: a yearly price counts a twelfth. */
  mrr: number;
  /** MRR shared among the members paying at the end (0 when none). */
  arpu: number;
  /** Members paying (not trials, not complimentary, not test mode) at the period's start and end. */
  payingAtStart: number;
  payingAtEnd: number;
  /** Subscriptions that started paying, and those that stopped, during the period. */
  paidGained: number;
  paidLost: number;
  /** paidLost / payingAtStart, between 0 and 1 (null when nobody paid at the start). */
  churn: number | null;
  /**
   * Courses bought on their own during the period (one-time payments, not in MRR), in minor
   * units, full refunds taken off; test-mode payments never count.
   */
  courseSales: number;
  coursesSold: number;
}

export interface MoneyAnswer {
  /** False when Stripe is not connected: the figures below are then empty. */
  available: boolean;
  /** Free members who became paid / (free members at the start + free sign-ups), null when none. */
  conversion: number | null;
  currencies: MoneyFigures[];
  /** MRR at the end of each step and course sales during it, per currency (same order as `currencies`). */
  points: Array<{ start: string; mrr: number[]; courseSales: number[] }>;
}

export type MembersFiguresResponse = DataAnswer<MembersFigures>;
export type MoneyFiguresResponse = DataAnswer<MoneyAnswer>;

/**
 * Where a member came from, as the landing page saw it (kept on their record from sign-up):
 * `source` is what the figures group by: `ref`, else `utm_source`, else the referrer's host, else
 * `direct`.
 */
export interface SignupSource {
  source: string;
  referrer?: string;
  ref?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
}

/** One course's members: who may open it, who started, who completed it. */
export interface CourseFiguresRow {
  courseId: string;
  title: string;
  access: 'public' | 'members' | 'paid';
  /** Members who may open the course now: every member, or paid members for a paid course. */
  enrolled: number;
  started: number;
  completed: number;
}

/** How far a course's members got, lesson by lesson. */
export interface LessonFigures {
  lessonId: string;
  title: string;
  kind: 'text' | 'video' | 'audio';
  /** Members who started the course and for whom this lesson is open (drip): the ones who could reach it. */
  open: number;
  /** Members who reached it: completed it or played its media. */
  reached: number;
  /** Media lessons: members who played it, and those who watched it through (completed it). */
  played: number | null;
  watchedThrough: number | null;
}

export interface CourseFigures extends CourseFiguresRow {
  lessons: LessonFigures[];
}

export type CourseFiguresListResponse = DataAnswer<CourseFiguresRow[]>;
export type CourseFiguresResponse = DataAnswer<CourseFigures>;

/** Sign-ups and upgrades of members by where they came from, most sign-ups first. */
export interface SourceFigures {
  source: string;
  signups: number;
  upgrades: number;
}

/** Page views and unique visitors (a visitor counted once per page and day). */
export interface VisitFigures {
  days: Array<{ day: string; views: number; visitors: number }>;
  pages: Array<{ page: string; views: number; visitors: number }>;
}

export type SourceFiguresResponse = DataAnswer<SourceFigures[]>;
export type VisitFiguresResponse = DataAnswer<VisitFigures>;
