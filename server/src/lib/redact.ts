/**
 * Secrets made fit to show: in the database explorer, the Activity log's before and after, and
 * MongoDB addresses in logs and messages.
 */

/** What a secret is shown as. */
export const REDACTED = '[redacted]';

/**
 * Field names whose values never leave the server, at any depth of any document: the site's own
 * (user password hashes, password-reset token hashes, session and token secrets, SMTP passwords)
 * and MongoDB's (`credentials` of admin.system.users holds the SCRAM keys and salts).
 */
export const REDACTED_FIELDS = [
  'password',
  'resetTokenHash',
  'sessionSecret',
  'jwtSecret',
  'secret',
  'smtpPassword',
  'credentials',
  'apiKey',
  'privateKey',
] as const;

/**
 * Any other field whose name says it holds a secret is hidden too, so that a field added later
 * is safe without anyone remembering this file (`emailChangeTokenHash` is hidden this way).
 * `resetTokenExpiresAt` and `emailChangeExpiresAt` are not secrets (dates) and are shown.
 */
const SECRET_NAME = /password|passwd|secret|hash|credential|api_?key|private_?key|salt/i;

/** Longer strings are cut: the explorer is for a look, not a dump of 16 MB documents. */
const MAX_STRING = 10_000;
const MAX_ITEMS = 1000;
const MAX_DEPTH = 32;

const isSecret = (key: string) =>
  (REDACTED_FIELDS as readonly string[]).includes(key) || SECRET_NAME.test(key);

/** A stored document made fit to show: secrets replaced, dates and MongoDB types as plain JSON values. */
export function redactDocument(doc: Record<string, unknown>): Record<string, unknown> {
  return shown(doc, 0) as Record<string, unknown>;
}

function shown(value: unknown, depth: number): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') {
    return value.length > MAX_STRING
      ? `${value.slice(0, MAX_STRING)}… (${value.length - MAX_STRING} more characters)`
      : value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof RegExp) return String(value);
  if (typeof value !== 'object') return String(value);
  if (depth >= MAX_DEPTH) return '[nested too deeply]';
  const bson = bsonValue(value);
  if (bson !== undefined) return bson;
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => shown(item, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`… ${value.length - MAX_ITEMS} more items`);
    return items;
  }
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    out[key] = isSecret(key) ? REDACTED : shown(field, depth + 1);
  }
  return out;
}

/** MongoDB's own value types (ObjectId, Long, Binary, ...), read without importing the driver. */
function bsonValue(value: object): unknown {
  const type = (value as { _bsontype?: string })._bsontype;
  if (!type) return Buffer.isBuffer(value) ? `Binary(${value.length} bytes)` : undefined;
  const v = value as { toHexString?: () => string; toString(): string; length?: number; position?: number };
  switch (type) {
    case 'ObjectId':
      return v.toHexString?.() ?? v.toString();
    case 'Binary':
      return `Binary(${v.position ?? v.length ?? 0} bytes)`;
    case 'Long':
    case 'Int32':
    case 'Double': {
      const number = Number(v.toString());
      return Number.isSafeInteger(number) || !Number.isInteger(number) ? number : v.toString();
    }
    default:
      return `${type}(${v.toString()})`;
  }
}

/** A MongoDB URI fit for logs and messages: the password replaced. */
export function redactUri(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/[^:/@]+):[^@]*@/, '$1:***@');
}
