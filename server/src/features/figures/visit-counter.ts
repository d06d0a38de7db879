import { createHash } from 'node:crypto';
import { isAppPath } from '@common/app-paths';
import { PUBLIC_PAGES, publicPageAt } from '@common/public-pages';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { FigureDaysRepository } from './figure-days.repository';
import { dayOf } from './member-events';
import type { VisitsRepository } from './visits.repository';

/** How often a process writes the page views it gathered (one write per day's roll-up). */
export const FLUSH_EVERY_MS = 2000;
/** Robots, previews and scripts: never visitors. */
const BOTS =
  /bot|crawl|spider|slurp|facebookexternalhit|preview|headless|lighthouse|curl|wget|python|java\/|httpclient|go-http|node-fetch|axios|monitor|uptime/i;
/** A course's address as the site makes it. */
const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

export const viewsCounter = (page: string) => `views:${page}`;
export const visitorsCounter = (page: string) => `visitors:${page}`;

/** What a page view carries that decides whether and how it is counted. */
export interface PageView {
  path: string;
  address: string;
  userAgent: string | undefined;
  /** `DNT: 1` or `Sec-GPC: 1`: the visitor asked not to be tracked. */
  optedOut: boolean;
}

/**
 * The page a path is counted under: a public page, with a course's slug kept and any other
 * parameter (a reset link's token) left out with its segment. A page of the app that is not public (the
 * console, a member's pages) is null: not counted. Anything else is refused.
 */
export function countedPage(path: string): string | null {
  if (path.length > 200 || !path.startsWith('/') || /[^A-Za-z0-9/_\-.~]/.test(path) || path.includes('..'))
    throw new AppError('VALIDATION', 'Not a page of this site.');
  const page = publicPageAt(path);
  if (page === 'course') {
    if (!SLUG.test(path.slice('/courses/'.length)))
      throw new AppError('VALIDATION', 'Not a page of this site.');
    return path;
  }
  // A parameter's segment goes with it: a reset link counts as `/reset-password`, nothing of its token.
  if (page) return PUBLIC_PAGES[page].path.replace(/\/:[^/]+/g, '');
  if (isAppPath(path)) return null;
  throw new AppError('VALIDATION', 'Not a page of this site.');
}

/**
 * Counts page views and unique visitors per day and page, with no cookie and no stored address:
 * a visitor is a hash of the day's salt, address and browser. Views are gathered in memory and
 * written every FLUSH_EVERY_MS (the visitor's request never waits on the store); a visitor is
 * counted once per page and day across processes by the first sighting of their hash.
 */
export class VisitCounter {
  private pending = new Map<string, { views: number; visitors: Set<string> }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly days: FigureDaysRepository,
    private readonly visits: VisitsRepository,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Takes a page view (refusing a forged path); answers whether it will be counted. */
  take(view: PageView): boolean {
    const page = countedPage(view.path);
    if (page === null || view.optedOut || !view.userAgent || BOTS.test(view.userAgent)) return false;
    const key = `${dayOf(this.now())}|${page}`;
    const entry = this.pending.get(key) ?? { views: 0, visitors: new Set<string>() };
    entry.views += 1;
    // Not yet hashed: the address lives in this process's memory until the next write, at most.
    entry.visitors.add(`${view.address}\n${view.userAgent}`);
    this.pending.set(key, entry);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
    return true;
  }

  /** Writes what was gathered: per day, one addition to its roll-up. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const gathered = this.pending;
    this.pending = new Map();
    const byDay = new Map<string, Record<string, number>>();
    try {
      for (const [key, { views, visitors }] of gathered) {
        const [day, page] = key.split('|') as [string, string];
        const salt = await this.visits.saltOf(day);
        let fresh = 0;
        for (const visitor of visitors) {
          const id = createHash('sha256')
            .update(`${salt}\n${day}\n${page}\n${visitor}`)
            .digest('hex')
            .slice(0, 24);
          if (await this.visits.firstSighting(id, day)) fresh += 1;
        }
        const counts = byDay.get(day) ?? {};
        counts[viewsCounter(page)] = (counts[viewsCounter(page)] ?? 0) + views;
        if (fresh) counts[visitorsCounter(page)] = (counts[visitorsCounter(page)] ?? 0) + fresh;
        byDay.set(day, counts);
      }
      for (const [day, counts] of byDay) await this.days.add(day, counts);
    } catch (error) {
      this.log.error({ err: error }, 'Could not write the page views gathered');
    }
  }

  /** Drops the salts and sightings of days gone by (daily). */
  forgetOld(): Promise<void> {
    return this.visits.forgetBefore(dayOf(this.now()));
  }
}
