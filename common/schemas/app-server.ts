import { z } from 'zod';

/** The console's Node.js panel: the application server's own settings. */

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const APP_LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'verbose'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
export type AppLogLevel = (typeof APP_LOG_LEVELS)[number];

export const APP_SERVER_LIMITS = {
  portMin: 1000,
  portMax: 65535,
  rateLimitWindowMin: 1000,
  /** One day: a longer window would keep every visitor's counter in memory for longer. */
  rateLimitWindowMax: 86_400_000,
  rateLimitMaxMin: 1,
  rateLimitMaxMax: 1_000_000,
  sessionSecretMin: 32,
  sessionSecretMax: 1024,
  /** JSON bodies are held in memory while parsed, so even the largest allowed size stays modest. */
  requestSizeMin: 1024,
  requestSizeMax: 100 * 1024 * 1024,
  /** 0 means automatic: one worker per CPU core, at most WORKERS_AUTOMATIC_MAX. */
  workersMin: 0,
  workersMax: 16,
} as const;

/**
 * With `workers` at 0 the server runs one worker per CPU core, but no more than this: past a few
 * processes each one's memory costs more than the throughput it adds on a small machine.
 */
export const WORKERS_AUTOMATIC_MAX = 4;

export interface AppServerSettings {
  port: number;
  nodeEnv: NodeEnv;
  corsOrigin: string;
  maxRequestSize: string;
  rateLimitWindow: number;
  rateLimitMax: number;
  /** Empty when none is set (the generated DATA_DIR/jwt-secret is used then). */
  sessionSecret: string;
  logLevel: AppLogLevel;
  /** Server processes under `npm start`'s supervisor; 0 = one per CPU core (at most WORKERS_AUTOMATIC_MAX). */
  workers: number;
}

export type AppServerField = keyof AppServerSettings;

export const APP_SERVER_DEFAULTS: AppServerSettings = {
  port: 5001,
  nodeEnv: 'production',
  corsOrigin: '*',
  maxRequestSize: '50mb',
  rateLimitWindow: 900_000,
  rateLimitMax: 100,
  sessionSecret: '',
  logLevel: 'info',
  workers: 0,
};

/** Fields that only take effect when the server starts; the others apply at once. */
export const RESTART_FIELDS = [
  'port',
  'nodeEnv',
  'sessionSecret',
  'workers',
] as const satisfies AppServerField[];

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** '50mb', '100kb', '1.5mb' or a plain number of bytes → bytes; null when not a size. */
export function parseSize(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(text.trim());
  if (!match) return null;
  const bytes = Number(match[1]) * (UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1);
  return Number.isFinite(bytes) ? Math.floor(bytes) : null;
}

/** `*`, or origins (scheme, host and optional port, nothing else) separated by commas. */
export function parseCorsOrigin(text: string): '*' | string[] | null {
  const trimmed = text.trim();
  if (trimmed === '*') return '*';
  const origins = trimmed
    .split(',')
    .map((part) => part.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  if (origins.length === 0) return null;
  for (const origin of origins) {
    try {
      const url = new URL(origin);
      if (!/^https?:$/.test(url.protocol) || url.origin !== origin) return null;
    } catch {
      return null;
    }
  }
  return origins;
}

/** A whole number given as a number or as digits (form fields send either). */
function integerField(field: string, min: number, max: number, hint = '') {
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d+$/, `${field} must be a whole number`),
      ],
      {
        error: `${field} must be a whole number`,
      },
    )
    .transform(Number)
    .pipe(
      z
        .number()
        .int(`${field} must be a whole number`)
        .min(min, `${field} must be between ${min} and ${max}${hint}`)
        .max(max, `${field} must be between ${min} and ${max}${hint}`),
    );
}

const L = APP_SERVER_LIMITS;

export const appServerFieldSchemas = {
  port: integerField('port', L.portMin, L.portMax),
  nodeEnv: z.enum(NODE_ENVS, { error: 'nodeEnv must be development, production or test' }),
  corsOrigin: z
    .string({ error: 'corsOrigin must be text' })
    .max(2000, 'corsOrigin is too long')
    .refine((value) => parseCorsOrigin(value) !== null, {
      error: 'corsOrigin must be * or origins separated by commas, such as https://example.com',
    })
    .transform((value) => {
      const parsed = parseCorsOrigin(value);
      return parsed === '*' || parsed === null ? '*' : parsed.join(', ');
    }),
  maxRequestSize: z
    .string({ error: 'maxRequestSize must be text such as 10mb or 100kb' })
    .trim()
    .refine(
      (value) => {
        const bytes = parseSize(value);
        return bytes !== null && bytes >= L.requestSizeMin && bytes <= L.requestSizeMax;
      },
      { error: 'maxRequestSize must be a size between 1kb and 100mb, such as 10mb or 100kb' },
    )
    .transform((value) => value.toLowerCase().replace(/\s+/g, '')),
  rateLimitWindow: integerField('rateLimitWindow', L.rateLimitWindowMin, L.rateLimitWindowMax, ' (ms)'),
  rateLimitMax: integerField('rateLimitMax', L.rateLimitMaxMin, L.rateLimitMaxMax),
  sessionSecret: z
    .string({ error: 'sessionSecret must be text' })
    .max(L.sessionSecretMax, `sessionSecret must be at most ${L.sessionSecretMax} characters`)
    .refine((value) => value === '' || value.length >= L.sessionSecretMin, {
      error: `sessionSecret must be at least ${L.sessionSecretMin} characters (or blank to keep the current one)`,
    }),
  logLevel: z.enum(APP_LOG_LEVELS, { error: 'logLevel must be error, warn, info, debug or verbose' }),
  workers: integerField('workers', L.workersMin, L.workersMax, ' (0 for one per CPU core)'),
} satisfies { [K in AppServerField]: z.ZodType<AppServerSettings[K], unknown> };

/**
 * POST /api/admin/nodejs/config. The console sends the whole config; a field left out keeps
 * its current value, and a blank sessionSecret keeps the current secret.
 */
export const appServerConfigBody = z.object({
  port: appServerFieldSchemas.port.optional(),
  nodeEnv: appServerFieldSchemas.nodeEnv.optional(),
  corsOrigin: appServerFieldSchemas.corsOrigin.optional(),
  maxRequestSize: appServerFieldSchemas.maxRequestSize.optional(),
  rateLimitWindow: appServerFieldSchemas.rateLimitWindow.optional(),
  rateLimitMax: appServerFieldSchemas.rateLimitMax.optional(),
  sessionSecret: appServerFieldSchemas.sessionSecret.optional(),
  logLevel: appServerFieldSchemas.logLevel.optional(),
  workers: appServerFieldSchemas.workers.optional(),
});
export type AppServerConfigBody = z.infer<typeof appServerConfigBody>;

/** What GET /api/admin/nodejs/config answers in `config`. The secret itself is never sent. */
export interface AppServerConfigView extends AppServerSettings {
  /** Always ''. */
  sessionSecret: '';
  /** Whether a session secret is configured (else the generated one in DATA_DIR is used). */
  sessionSecretSet: boolean;
  /** Fields fixed by an environment variable, with the variable's name: read-only in the console. */
  fixedByEnvironment: Partial<Record<AppServerField, string>>;
  /** Saved fields that differ from what the running server started with: they wait for a restart. */
  pendingRestart: AppServerField[];
}

export interface AppServerConfigResponse {
  success: true;
  config: AppServerConfigView;
}

export interface AppServerSaveResponse extends AppServerConfigResponse {
  message: string;
  /** Fields that were sent but are fixed by the environment, so nothing changed for them. */
  ignored: AppServerField[];
}

/** One server process's own figures. */
export interface WorkerStatus {
  pid: number;
  /** Milliseconds since this process started. */
  uptime: number;
  memory: { heapUsed: number; heapTotal: number; rss: number };
  /** Microseconds of CPU time. */
  cpu: { user: number; system: number };
}

/**
 * The top-level figures are the site's totals: memory and CPU summed over the workers, uptime
 * the longest-running worker's. `workers` lists each one (a worker that did not answer in time
 * is left out of the totals and listed with its pid only).
 */
export interface AppServerStatus {
  uptime: number;
  memory: { heapUsed: number; heapTotal: number; rss: number };
  cpu: { user: number; system: number };
  version: string;
  /** The pid of the process that answered this request. */
  answeredBy: number;
  workers: Array<WorkerStatus | { pid: number }>;
  /** `npm start`'s supervisor, when the server runs under it. */
  supervisor?: { pid: number; uptime: number; rss: number };
}

export interface AppServerStatusResponse {
  success: true;
  status: AppServerStatus;
}

export interface AppServerRestartResponse {
  success: true;
  message: string;
  /** The port the server listens on after the restart, and the one it listened on before. */
  port: number;
  previousPort: number;
}

/** What the console may send: numbers may also come as digits. */
export type AppServerConfigInput = z.input<typeof appServerConfigBody>;
