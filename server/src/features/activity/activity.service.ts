import {
  ACTIVITY_KINDS,
  type ActivityEntry,
  type ActivityExportQuery,
  type ActivityKind,
  type ActivityListQuery,
} from '@common/schemas/activity';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Filter } from '../../store/store';
import { redactDocument } from '../database/redact';
import type { ActivityDoc, ActivityRepository } from './activity.repository';

const DAY_MS = 24 * 60 * 60 * 1000;

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
    private readonly retentionDays: number,
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

  /** Every entry one person made, newest first (a member's "Download my data"). */
  async byActor(actorId: string): Promise<ActivityEntry[]> {
    return (await this.entries.find({ actorId }, { sort: { createdAt: -1, _id: -1 } })).map(toEntry);
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
