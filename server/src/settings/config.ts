/**
 * The only reader of process.env. Parsed once at start-up; a bad value stops the server
 * with a message that names every bad value at once, not just the first.
 *
 * The settings of the console's Node.js panel are layered: an environment variable wins, then
 * the value saved by the console (DATA_DIR/app-server.json), then the default.
 *
 * Seams, in order: log levels (pino's and the panel's), the environment's schema (`envSchema`,
 * one zod object so every bad value is named at once), the `Config` it makes, and `loadConfig`,
 * which layers environment > saved > default. They stay one file: each step reads the one before.
 */
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import {
  APP_SERVER_DEFAULTS,
  type AppLogLevel,
  type AppServerField,
  type AppServerSettings,
  appServerFieldSchemas,
  WORKERS_AUTOMATIC_MAX,
} from '@common/schemas/app-server';
import { z } from 'zod';
import { readSavedSettings } from './app-server-file';
import { checkNginxEnv, type NginxSettings, nginxEnvFields, nginxSettings } from './nginx-settings';
import { type PaymentsEnv, paymentsEnv, paymentsEnvFields } from './payments-env';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

/** The environment variable that fixes each panel field; such a field is read-only in the console. */
export const ENV_OF_FIELD = {
  port: 'PORT',
  nodeEnv: 'NODE_ENV',
  corsOrigin: 'CORS_ORIGIN',
  maxRequestSize: 'MAX_REQUEST_SIZE',
  rateLimitWindow: 'RATE_LIMIT_WINDOW',
  rateLimitMax: 'RATE_LIMIT_MAX',
  sessionSecret: 'JWT_SECRET',
  logLevel: 'LOG_LEVEL',
  workers: 'WORKERS',
} as const satisfies Record<AppServerField, string>;

/** The console's levels onto pino's: 'verbose' is pino's 'trace'. */
export function pinoLevelOf(level: AppLogLevel): LogLevel {
  return level === 'verbose' ? 'trace' : level;
}

function panelLevelOf(level: LogLevel | 'verbose'): AppLogLevel {
  if (level === 'trace' || level === 'verbose') return 'verbose';
  if (level === 'fatal' || level === 'silent') return 'error';
  return level;
}

/** `10.0.0.1`, `10.0.0.0/24`, `fd00::/8`: what Fastify's trustProxy takes. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** An unset or blank variable counts as not given. */
const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const optionalString = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

const envSchema = z
  .object({
    PORT: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
    HOST: z.string().trim().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
    MAIL_FROM: optionalString,
    MONGODB_URI: optionalString.pipe(
      z
        .string()
        .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb://')
        .optional(),
    ),
    ADMIN_EMAIL: optionalString.pipe(z.email().optional()),
    ADMIN_PASSWORD: optionalString.pipe(z.string().min(8, 'must be at least 8 characters').optional()),
    LOG_LEVEL: z.preprocess(blankToUndefined, z.enum([...LOG_LEVELS, 'verbose']).optional()),
    NODE_ENV: z.preprocess(blankToUndefined, appServerFieldSchemas.nodeEnv.optional()),
    CORS_ORIGIN: z.preprocess(blankToUndefined, appServerFieldSchemas.corsOrigin.optional()),
    MAX_REQUEST_SIZE: z.preprocess(blankToUndefined, appServerFieldSchemas.maxRequestSize.optional()),
    RATE_LIMIT_WINDOW: z.preprocess(blankToUndefined, appServerFieldSchemas.rateLimitWindow.optional()),
    RATE_LIMIT_MAX: z.preprocess(blankToUndefined, appServerFieldSchemas.rateLimitMax.optional()),
    WORKERS: z.preprocess(blankToUndefined, appServerFieldSchemas.workers.optional()),
    JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    MEDIA_ROOTS: optionalString,
    MEDIA_DIR: optionalString,
    LESSONS_DIR: optionalString,
    TRUSTED_PROXIES: optionalString.pipe(
      z
        .string()
        .refine(
          (value) => value.split(',').every((entry) => isAddressOrRange(entry.trim())),
          'must be IP addresses or ranges (10.0.0.1, 10.0.0.0/24, fd00::/8) separated by commas',
        )
        .optional(),
    ),
    ACTIVITY_RETENTION_DAYS: z.preprocess(
      blankToUndefined,
      z.coerce.number().int().min(1).max(36500).default(365),
    ),
    CLIENT_DIST_DIR: optionalString,
    ...nginxEnvFields,
    ...paymentsEnvFields,
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_PASSWORD'],
        message: 'ADMIN_EMAIL and ADMIN_PASSWORD go together',
      });
    }
    checkNginxEnv(env, ctx);
  });

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  mongodbUri?: string;
  admin?: { email: string; password: string };
  /** pino's level at start (the console can change it while running). */
  logLevel: LogLevel;
  /** The secret that signs sign-in tokens; unset means the generated DATA_DIR/jwt-secret. */
  jwtSecret?: string;
  nodeEnv: AppServerSettings['nodeEnv'];
  /** The Node.js panel's settings in force at start (environment > saved > default). */
  appServer: Readonly<AppServerSettings>;
  /** How many server processes `npm start`'s supervisor runs (the `workers` setting, 0 resolved). */
  workers: number;
  /** Panel fields fixed by an environment variable, with the variable's name. */
  fixedByEnv: Readonly<Partial<Record<AppServerField, string>>>;
  /**
   * The media library's folder until the Background Manager chooses another (MEDIA_DIR, by
   * default DATA_DIR/media). Several instances of one site give it the same shared folder.
   */
  mediaDir: string;
  /** Absolute folders that a media base path may point into (MEDIA_DIR's always among them). */
  mediaRoots: string[];
  /**
   * Where lesson videos and downloads are kept, never served as they are (LESSONS_DIR, by default
   * DATA_DIR/lessons). Several instances of one site give it the same shared folder.
   */
  lessonsDir: string;
  /**
   * Proxies whose X-Forwarded-For names the visitor (TRUSTED_PROXIES): nginx on this machine by
   * default; the nginx machine's address when it forwards to this one from another machine.
   */
  trustedProxies: string[];
  /** How long Activity log entries are kept (ACTIVITY_RETENTION_DAYS, a year by default). */
  activityRetentionDays: number;
  /** The built web client (`npm run build` output). */
  clientDistDir: string;
  /** Which nginx the web-server panel drives (NGINX_* variables). */
  nginx: NginxSettings;
  /** Stripe settings given by STRIPE_* variables; they win over the console's Payments section. */
  payments: PaymentsEnv;
}

/**
 * The checkout's root: the nearest folder above this file holding package.json. This file runs
 * from server/src/settings/ under tsx and from dist/server/ once bundled, at different depths.
 */
function checkoutRoot(from = import.meta.dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

const DEFAULT_CLIENT_DIST = path.join(checkoutRoot(), 'dist/client');

export class ConfigError extends Error {}

/** The `workers` setting as a count: 0 means one per CPU core, at most WORKERS_AUTOMATIC_MAX. */
export function workerCount(setting: number): number {
  return setting > 0 ? setting : Math.max(1, Math.min(availableParallelism(), WORKERS_AUTOMATIC_MAX));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const saved = readSavedSettings(dataDir);
  if (saved.problems.length > 0) {
    throw new ConfigError(
      `Invalid saved settings (fix them or delete the file):\n  ${saved.problems.join('\n  ')}`,
    );
  }
  const s = saved.values;
  const d = APP_SERVER_DEFAULTS;
  const appServer: AppServerSettings = {
    port: e.PORT ?? s.port ?? d.port,
    nodeEnv: e.NODE_ENV ?? s.nodeEnv ?? d.nodeEnv,
    corsOrigin: e.CORS_ORIGIN ?? s.corsOrigin ?? d.corsOrigin,
    maxRequestSize: e.MAX_REQUEST_SIZE ?? s.maxRequestSize ?? d.maxRequestSize,
    rateLimitWindow: e.RATE_LIMIT_WINDOW ?? s.rateLimitWindow ?? d.rateLimitWindow,
    rateLimitMax: e.RATE_LIMIT_MAX ?? s.rateLimitMax ?? d.rateLimitMax,
    sessionSecret: e.JWT_SECRET ?? s.sessionSecret ?? d.sessionSecret,
    logLevel: e.LOG_LEVEL ? panelLevelOf(e.LOG_LEVEL) : (s.logLevel ?? d.logLevel),
    workers: e.WORKERS ?? s.workers ?? d.workers,
  };
  const fixedByEnv: Partial<Record<AppServerField, string>> = {};
  for (const [field, variable] of Object.entries(ENV_OF_FIELD)) {
    if (blankToUndefined(env[variable]) !== undefined) fixedByEnv[field as AppServerField] = variable;
  }
  const port = appServer.port;
  const mediaDir = path.resolve(e.MEDIA_DIR ?? path.join(dataDir, 'media'));
  const mediaRoots = (e.MEDIA_ROOTS ? e.MEDIA_ROOTS.split(',') : [dataDir])
    .map((root) => root.trim())
    .filter(Boolean)
    .map((root) => path.resolve(root));
  // A media folder chosen by MEDIA_DIR is allowed without repeating it in MEDIA_ROOTS.
  if (e.MEDIA_DIR && !mediaRoots.includes(mediaDir)) mediaRoots.push(mediaDir);
  return Object.freeze({
    port,
    host: e.HOST,
    dataDir,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST}:${port}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `no-reply@${e.HOST === '127.0.0.1' ? 'localhost' : e.HOST}`,
    mongodbUri: e.MONGODB_URI,
    admin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    logLevel: e.LOG_LEVEL === 'verbose' ? 'trace' : (e.LOG_LEVEL ?? pinoLevelOf(appServer.logLevel)),
    jwtSecret: appServer.sessionSecret || undefined,
    nodeEnv: appServer.nodeEnv,
    appServer: Object.freeze(appServer),
    workers: workerCount(appServer.workers),
    fixedByEnv: Object.freeze(fixedByEnv),
    clientDistDir: path.resolve(e.CLIENT_DIST_DIR ?? DEFAULT_CLIENT_DIST),
    mediaDir,
    mediaRoots,
    lessonsDir: path.resolve(e.LESSONS_DIR ?? path.join(dataDir, 'lessons')),
    trustedProxies: e.TRUSTED_PROXIES
      ? e.TRUSTED_PROXIES.split(',').map((entry) => entry.trim())
      : ['127.0.0.1', '::1'],
    nginx: nginxSettings(e, dataDir),
    payments: paymentsEnv(e),
    activityRetentionDays: e.ACTIVITY_RETENTION_DAYS,
  });
}
