import type { Filter } from '../../store/store';
import type { ActivityDoc } from './activity.repository';

/** A deleted person, as the Activity log names them from then on. */
export const deletedMemberLabel = (id: string) => `deleted member #${id.slice(-6)}`;

/** The person whose traces go: their id and the address their account had last. */
export interface ForgottenPerson {
  _id: string;
  email: string;
}

/** The addresses the person had, gathered from their account and the log itself. */
export interface Traces {
  id: string;
  label: string;
  emails: Set<string>;
}

/** Entries made by the person, or holding their record (an administrator's edit, creation, deletion). */
const linked = (id: string): Filter[] => [{ actorId: id }, { 'before._id': id }, { 'after._id': id }];

/** Entries that name one of the person's addresses (an administrator signing them out everywhere). */
const naming = (emails: Set<string>): Filter[] => [
  { actorEmail: { $in: [...emails] } },
  ...[...emails].map((email) => ({ summary: { $contains: email } })),
];

/** Where the person's addresses are learnt from. */
export const linkedFilter = (id: string): Filter => ({ $or: linked(id) });

/** Every entry that may hold the person's data, once their addresses are known. */
export const aboutFilter = (traces: Traces): Filter => ({
  $or: [...linked(traces.id), ...naming(traces.emails)],
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The objects in an entry's before/after that describe the person: their user record (it carries
 * their `_id`), or the values of a change they made to their own account (`account.*`).
 */
function aboutThem(entry: ActivityDoc, id: string): Array<Record<string, unknown>> {
  const own = entry.actorId === id && entry.kind.startsWith('account.');
  return [entry.before, entry.after].filter(
    (value): value is Record<string, unknown> => isRecord(value) && (own || value._id === id),
  );
}

/**
 * Every address the person went by: the account's, the ones they acted under, and the old and new
 * ones of their own and administrators' changes. Not an address they only asked for
 * (`account.email-requested`): it may be someone else's, whose entries must stay as they are.
 * Names need no list: they are only ever in the person's record, which goes whole.
 */
export function tracesOf(person: ForgottenPerson): Traces {
  return {
    id: person._id,
    label: deletedMemberLabel(person._id),
    emails: new Set([person.email.toLowerCase()]),
  };
}

/** Adds the addresses these entries (of `linkedFilter`) show the person had. */
export function learnAddresses(traces: Traces, entries: ActivityDoc[]): void {
  for (const entry of entries) {
    if (entry.actorId === traces.id && entry.actorEmail.includes('@'))
      traces.emails.add(entry.actorEmail.toLowerCase());
    if (entry.kind === 'account.email-requested') continue;
    for (const value of aboutThem(entry, traces.id))
      if (typeof value.email === 'string') traces.emails.add(value.email.toLowerCase());
  }
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A whole address only: "ada@example.com" is not to be cut out of "nada@example.com". */
function addressPattern(emails: Set<string>): RegExp {
  const alternatives = [...emails].map(literal).join('|');
  return new RegExp(`(?<![A-Za-z0-9._%+-])(?:${alternatives})(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`, 'gi');
}

/**
 * The fields of one entry with the person's addresses and name replaced by their label; null when
 * none were there. Everything else (when, from where, what kind, role and tier) stays.
 */
export function scrubbed(
  entry: ActivityDoc,
  traces: Traces,
): Pick<ActivityDoc, 'actorEmail' | 'summary' | 'before' | 'after'> | null {
  const pattern = addressPattern(traces.emails);
  const text = (value: string) => value.replace(pattern, traces.label);
  const subjects = new Set(aboutThem(entry, traces.id));
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(walk);
    if (!isRecord(value) || value instanceof Date) return value;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      // In their own record, the address and name go whatever they were (an address asked for too).
      const personal = subjects.has(value) && ['email', 'emailChangeTo', 'name'].includes(key);
      out[key] = personal && typeof field === 'string' ? traces.label : walk(field);
    }
    return out;
  };
  const isTheirs = entry.actorId === traces.id || traces.emails.has(entry.actorEmail.toLowerCase());
  const next = {
    actorEmail: isTheirs ? traces.label : entry.actorEmail,
    summary: text(entry.summary),
    before: walk(entry.before ?? null),
    after: walk(entry.after ?? null),
  };
  const same =
    next.actorEmail === entry.actorEmail &&
    next.summary === entry.summary &&
    JSON.stringify(next.before) === JSON.stringify(entry.before ?? null) &&
    JSON.stringify(next.after) === JSON.stringify(entry.after ?? null);
  return same ? null : next;
}
