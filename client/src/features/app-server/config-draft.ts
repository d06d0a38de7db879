import {
  type AppLogLevel,
  type AppServerConfigInput,
  type AppServerConfigView,
  type AppServerField,
  appServerFieldSchemas,
  type NodeEnv,
} from '@common/schemas/app-server';

/** The form's values as typed: numbers stay text until saved, so half-typed values are kept. */
export interface ConfigDraft {
  port: string;
  nodeEnv: NodeEnv;
  corsOrigin: string;
  maxRequestSize: string;
  rateLimitWindow: string;
  rateLimitMax: string;
  sessionSecret: string;
  logLevel: AppLogLevel;
  workers: string;
}

export function draftOf(config: AppServerConfigView): ConfigDraft {
  return {
    port: String(config.port),
    nodeEnv: config.nodeEnv,
    corsOrigin: config.corsOrigin,
    maxRequestSize: config.maxRequestSize,
    rateLimitWindow: String(config.rateLimitWindow),
    rateLimitMax: String(config.rateLimitMax),
    sessionSecret: '',
    logLevel: config.logLevel,
    workers: String(config.workers),
  };
}

/** Numeric fields are parsed as integers; anything else goes as typed, for the server to name. */
const integer = (text: string): number | string =>
  /^\s*-?\d+\s*$/.test(text) ? Number.parseInt(text, 10) : text;

export type FieldErrors = Partial<Record<AppServerField, string>>;

/**
 * Every bad field at once, in the words of its label ("Rate Limit Window (ms) must be…"), checked
 * with the same rules the server applies. Fields fixed by the environment are not sent, so not checked.
 */
export function fieldErrors(draft: ConfigDraft, fixed: Partial<Record<AppServerField, string>>): FieldErrors {
  const body = bodyOf(draft) as Record<AppServerField, unknown>;
  const errors: FieldErrors = {};
  for (const field of Object.keys(FIELD_LABELS) as AppServerField[]) {
    if (fixed[field]) continue;
    const result = appServerFieldSchemas[field].safeParse(body[field]);
    if (result.success) continue;
    const message = result.error.issues[0]?.message ?? 'is not valid';
    errors[field] = message.startsWith(field)
      ? `${FIELD_LABELS[field]}${message.slice(field.length)}`
      : `${FIELD_LABELS[field]}: ${message}`;
  }
  return errors;
}

export function bodyOf(draft: ConfigDraft): AppServerConfigInput {
  return {
    ...draft,
    port: integer(draft.port),
    rateLimitWindow: integer(draft.rateLimitWindow),
    rateLimitMax: integer(draft.rateLimitMax),
    workers: integer(draft.workers),
  };
}

export const FIELD_LABELS: Record<AppServerField, string> = {
  port: 'Server Port',
  nodeEnv: 'Environment',
  corsOrigin: 'CORS Origin',
  maxRequestSize: 'Max Request Size',
  rateLimitWindow: 'Rate Limit Window (ms)',
  rateLimitMax: 'Rate Limit Max Requests',
  sessionSecret: 'Session Secret',
  logLevel: 'Log Level',
  workers: 'Workers',
};
