import {
  ACTIVITY_KINDS,
  type ActivityEntry,
  type ActivityExportQuery,
  type ActivityKind,
  type ActivityListQuery,
} from '@common/schemas/activity';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { redactDocument } from '../../lib/redact';
import type { Filter } from '../../store/store';
import type { ActivityDoc, ActivityRepository } from './activity.repository';
import {
  aboutFilter,
  type ForgottenPerson,
  learnAddresses,
  linkedFilter,
  scrubbed,
  tracesOf,
} from './activity-forget';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Kinds of entries about the actor's own account, the only ones "Download my data" hands out: an
 * administrator's other entries hold other people's records (the before/after of their edits).
 */
const OWN_ACCOUNT_KINDS = (Object.keys(ACTIVITY_KINDS) as ActivityKind[]).filter(
  (kind) => kind.startsWith('account.') || kind.startsWith('signin.') || kind === 'reauth.failed',
);

/** What a feature tells the log about one change. */
export interface ActivityInput {
  kind: ActivityKind;
  /** One plain sentence: "Suspended jane@example.com". */
  summary: string;
  /** The values before and after the change; secrets are redacted before they are stored. */
  before?: unknown;
  after?: unknown;
  /** Who did it, when it is not the signed-in user of the request (a sign-in attempt). */
  actor?: { id: string | null; email: string };
}

/**
 * The Activity log: who changed what, when, from where. Features call `record` once per change,
 * after the change succeeded. Recording never fails the change itself: a log that cannot be
 * written is reported in the server log instead.
 */
export class ActivityLog {
  constructor(
    private readonly entries: ActivityRepository,
    private readonly log: FastifyBaseLogger,
    /** How long entries are kept (ACTIVITY_RETENTION_DAYS), told to members before they delete their account. */
    readonly retentionDays: number,
  ) {}

  async record(request: FastifyRequest, input: ActivityInput): Promise<void> {
    const actor = input.actor ?? {
      id: request.user?._id ?? null,
      email: request.user?.email ?? 'unknown',
    };
    try {
      await this.entries.append({
        actorId: actor.id,
        actorEmail: actor.email,
        address: request.ip,
        kind: input.kind,
        summary: input.summary,
        before: redacted(input.before),
        after: redacted(input.after),
      });
    } catch (error) {
      this.log.error({ err: error, kind: input.kind }, 'Could not write an Activity log entry');
    }
  }

  async list(query: ActivityListQuery) {
    const filter = filterOf(query);
    const [total, docs] = await Promise.all([
      this.entries.count(filter),
      this.entries.find(filter, {
        sort: { createdAt: -1, _id: -1 },
        skip: (query.page - 1) * query.pageSize,
        limit: query.pageSize,
      }),
    ]);
    return {
      data: docs.map(toEntry),
      total,
      totalPages: Math.max(1, Math.ceil(total / query.pageSize)),
      currentPage: query.page,
    };
  }

  /** The entries about one person's own account, newest first (a member's "Download my data"). */
  async aboutOwnAccount(actorId: string): Promise<ActivityEntry[]> {
    const filter = { actorId, kind: { $in: OWN_ACCOUNT_KINDS } };
    return (await this.entries.find(filter, { sort: { createdAt: -1, _id: -1 } })).map(toEntry);
  }

  /**
   * After an account is deleted: every entry about the person stays (what was done, when, from
   * where), but under "deleted member #…", without their addresses or name. Read a batch at a
   * time (an administrator's year of changes need not sit in memory), in two passes: the first
   * learns every address the person had, the second rewrites what names them. Like `record`, it
   * never fails the deletion; what went wrong is reported in the server log with the person's id.
   */
  async forget(person: ForgottenPerson): Promise<void> {
    try {
      const traces = tracesOf(person);
      for await (const batch of this.entries.findInBatches(linkedFilter(person._id)))
        learnAddresses(traces, batch);
      for await (const batch of this.entries.findInBatches(aboutFilter(traces))) {
        for (const entry of batch) {
          const fields = scrubbed(entry, traces);
          if (fields) await this.entries.rewrite(entry._id, fields);
        }
      }
    } catch (error) {
      this.log.error(
        { err: error, userId: person._id },
        'Could not take a deleted account out of the Activity log',
      );
    }
  }

  async all(query: ActivityExportQuery): Promise<ActivityEntry[]> {
    return (await this.entries.find(filterOf(query), { sort: { createdAt: -1, _id: -1 } })).map(toEntry);
  }

  /** Drops entries past the retention period (ACTIVITY_RETENTION_DAYS). */
  async prune(now = Date.now()): Promise<number> {
    return this.entries.deleteOlderThan(new Date(now - this.retentionDays * DAY_MS));
  }
}

function filterOf(query: ActivityExportQuery): Filter {
  const filter: Filter = {};
  if (query.actor) filter.actorEmail = query.actor;
  if (query.kind) filter.kind = query.kind;
  const range: Record<string, Date> = {};
  if (query.from) range.$gte = new Date(`${query.from}T00:00:00.000Z`);
  if (query.to) range.$lt = new Date(new Date(`${query.to}T00:00:00.000Z`).getTime() + DAY_MS);
  if (Object.keys(range).length > 0) filter.createdAt = range;
  return filter;
}

function redacted(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  return redactDocument({ value }).value;
}

function toEntry(doc: ActivityDoc): ActivityEntry {
  return {
    _id: doc._id,
    at: doc.createdAt.toISOString(),
    actorId: doc.actorId,
    actorEmail: doc.actorEmail,
    address: doc.address,
    kind: doc.kind,
    summary: doc.summary,
    before: doc.before ?? null,
    after: doc.after ?? null,
  };
}

export const kindLabel = (kind: ActivityKind) => ACTIVITY_KINDS[kind] ?? kind;
