import path from 'node:path';
import { z } from 'zod';
import {
  checkNginxEnv,
  type NginxSettings,
  nginxEnvFields,
  nginxSettings,
} from './features/nginx/nginx-settings';

/**
 * The only reader of process.env. Parsed once at start-up; a bad value stops the server
 * with a message that names every bad value at once, not just the first.
 */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const optionalString = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(5001),
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
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    MEDIA_ROOTS: optionalString,
    CLIENT_DIST_DIR: optionalString,
    ...nginxEnvFields,
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
  logLevel: (typeof LOG_LEVELS)[number];
  jwtSecret?: string;
  /** Absolute folders that a media base path may point into. */
  mediaRoots: string[];
  /** The built web client (`npm run build` output). */
  clientDistDir: string;
  /** Which nginx the web-server panel drives (NGINX_* variables). */
  nginx: NginxSettings;
}

const DEFAULT_CLIENT_DIST = path.resolve(import.meta.dirname, '../../dist/client');

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const port = e.PORT;
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
    logLevel: e.LOG_LEVEL,
    jwtSecret: e.JWT_SECRET,
    clientDistDir: path.resolve(e.CLIENT_DIST_DIR ?? DEFAULT_CLIENT_DIST),
    mediaRoots: (e.MEDIA_ROOTS ? e.MEDIA_ROOTS.split(',') : [dataDir])
      .map((root) => root.trim())
      .filter(Boolean)
      .map((root) => path.resolve(root)),
    nginx: nginxSettings(e, dataDir),
  });
}
