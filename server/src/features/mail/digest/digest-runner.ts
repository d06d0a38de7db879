import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../../lib/app-error';
import type { MailDelivery, MailIdentity } from '../../../mail/mailer';
import { StoredSettingsRepository } from '../../../settings/stored-settings.repository';
import type { Store } from '../../../store/store';
import type { CoursesRepository } from '../../courses/courses.repository';
import { renderMarkdown } from '../../courses/markdown';
import type { ProgressRepository } from '../../courses/progress/progress.repository';
import type { StoreLeases } from '../../shared-state/store-lease';
import type { UsersRepository } from '../../users/users.repository';
import type { AnnouncementsRepository } from '../announcements/announcements.repository';
import { bulkMessage } from '../bulk/bulk-message';
import type { SharedPace } from '../bulk/pace';
import { sendOne, warnRepeat } from '../bulk/send-one';
import type { MailSettingsRepository } from '../mail-settings.repository';
import { type PreferencesRepository, wants } from '../preferences/preferences.repository';
import type { UnsubscribeLinks } from '../preferences/unsubscribe-links';
import { type CourseOutline, digestFor, digestMarkdown } from './new-lessons';

const DAY_MS = 24 * 60 * 60 * 1000;
const CHECK_MS = 60_000;
const BATCH = 200;
const ROUND_MS = 20_000;

/** Where the daily digest stands: the day it covers (its window) and how far through the members it got. */
interface DigestState {
  /** The end of the last window sent: the next covers (lastTo, lastTo + a day]. */
  lastTo: string;
  /** The window being sent (its end), with the last member id done; absent between runs. */
  windowTo?: string;
  cursor?: string | null;
}

export interface DigestDeps {
  store: Store;
  users: UsersRepository;
  courses: CoursesRepository;
  progress: ProgressRepository;
  announcements: AnnouncementsRepository;
  preferences: PreferencesRepository;
  settings: MailSettingsRepository;
  /** The one pace of all bulk mail (announcements' too), across processes. */
  pace: SharedPace;
  leases: StoreLeases;
  delivery: () => MailDelivery;
  links: UnsubscribeLinks;
  identity: () => Promise<MailIdentity>;
  siteName: () => Promise<string>;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** The clock: the product's is the real one; tests move their own. */
  now?: () => Date;
}

/**
 * The new-lessons digest: once a day, one mail per member listing the lessons that opened for
 * them that day (by drip, by date, or added by the owner), only in courses they started and may
 * open (new-lessons.ts). Runs in every process under the `mail-digest` lease; the members are
 * read a batch at a time after a cursor kept in the store, each one's record written around
 * the send like an announcement's (run id `digest-<window end>`), so a crash resends nothing
 * that was noted as sent. The first run only notes the time: nothing before it is news.
 */
export class DigestRunner {
  private readonly state: StoredSettingsRepository<DigestState>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(private readonly deps: DigestDeps) {
    this.state = new StoredSettingsRepository(deps.store, 'mail-digest');
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  start(): void {
    this.timer = setInterval(
      () =>
        void this.runDue().catch((error) =>
          this.deps.log.error({ err: error }, 'The new-lessons digest failed'),
        ),
      CHECK_MS,
    );
    this.timer.unref();
  }

  close(): Promise<unknown> {
    if (this.timer) clearInterval(this.timer);
    return this.running ?? Promise.resolve();
  }

  /** Sends the day's digest when one is due (or goes on with one under way); answers how many went out. */
  runDue(): Promise<number> {
    this.running ??= this.deps.leases
      .run('mail-digest', 'Another server process is sending the digest.', (held) => this.round(held), {
        ttlMs: 60_000,
        waitMs: 0,
      })
      .catch((error) => {
        if (error instanceof AppError && error.code === 'UNAVAILABLE') return 0;
        throw error;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async round(held: { assertHeld(): void }): Promise<number> {
    const now = this.now();
    let state = (await this.state.read()) as DigestState | null;
    if (!state?.lastTo) {
      await this.state.write({ lastTo: now.toISOString() });
      return 0;
    }
    if (!state.windowTo) {
      if (now.getTime() - Date.parse(state.lastTo) < DAY_MS) return 0;
      state = { lastTo: state.lastTo, windowTo: now.toISOString(), cursor: null };
      await this.state.write(state);
    }
    const from = new Date(state.lastTo);
    const to = new Date(state.windowTo!);
    const run = { id: `digest-${state.windowTo}`, createdAt: to };
    const outlines = await this.outlines();
    const started = Date.now();
    let sent = 0;
    let cursor = state.cursor ?? null;
    while (Date.now() - started < ROUND_MS) {
      const users = await this.deps.users.find(
        { role: 'user', status: 'active', ...(cursor ? { _id: { $gt: cursor } } : {}) },
        { sort: { _id: 1 }, limit: BATCH },
      );
      const ids = users.map((user) => user._id);
      const [progress, prefs, records] = await Promise.all([
        this.deps.progress.ofMembers(ids),
        this.deps.preferences.ofMany(ids),
        this.deps.announcements.recordsOf(run.id, ids),
      ]);
      const { perMinute } = await this.deps.settings.bulk();
      for (const user of users) {
        const record = records.get(user._id);
        if (record && record.state !== 'sending' && record.state !== 'retry') continue;
        if (!wants(prefs.get(user._id), 'lessons')) continue;
        const courses = new Set(progress.filter((doc) => doc.userId === user._id).map((doc) => doc.courseId));
        const opened = digestFor(user, courses, outlines, from, to);
        if (opened.length === 0) continue;
        await this.deps.pace.wait(perMinute);
        held.assertHeld();
        const recipient = { userId: user._id, email: user.email, name: user.name };
        if (record?.state === 'sending') warnRepeat(this.deps.log, run.id, recipient);
        const attempts = (record?.attempts ?? 0) + 1;
        await this.deps.announcements.record(run.id, recipient, 'sending', { attempts }, !record);
        const markdown = digestMarkdown(user.name, opened);
        const subject =
          opened.length === 1 ? `New lessons in ${opened[0]!.course.title}` : 'New lessons in your courses';
        const mail = bulkMessage(
          { subject, markdown, html: await renderMarkdown(markdown), kind: 'lessons' },
          recipient,
          { ...this.deps, from: (await this.deps.identity()).from, siteName: await this.deps.siteName() },
        );
        const outcome = await sendOne(this.deps, run, recipient, mail, attempts);
        // A passing problem of the mail server: this batch again at the next check.
        if (outcome === 'retry') return sent;
        if (outcome === 'sent') sent += 1;
      }
      cursor = users.at(-1)?._id ?? cursor;
      if (users.length < BATCH) {
        await this.state.write({ lastTo: state.windowTo! });
        this.deps.log.info({ run: run.id, sent }, 'New-lessons digest sent');
        return sent;
      }
      await this.state.write({ ...state, cursor });
    }
    return sent;
  }

  /** The published courses, each with its sections and lessons (few: read once per round). */
  private async outlines(): Promise<CourseOutline[]> {
    const courses = await this.deps.courses.publishedCourses();
    return Promise.all(
      courses.map(async (course) => {
        const [sections, lessons] = await Promise.all([
          this.deps.courses.sectionsOf(course._id),
          this.deps.courses.lessonsOf(course._id),
        ]);
        return {
          course,
          sections: sections.map((section) => ({
            section,
            lessons: lessons.filter((lesson) => lesson.sectionId === section._id),
          })),
        };
      }),
    );
  }
}
