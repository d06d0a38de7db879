import { z } from 'zod';
import type { Outcome, RefusalWithError } from './envelopes';

/** The form's defaults (localhost, 27017, pool 10) and the pool range (1 to 100). */
export const DATABASE_DEFAULTS = {
  host: 'localhost',
  port: 27017,
  database: 'members',
  username: '',
  authEnabled: false,
  ssl: false,
  poolSize: 10,
} as const;
export const POOL_SIZE_RANGE = { min: 1, max: 100 } as const;

/** The explorer shows this many documents unless asked for fewer or more, and never more than the cap. */
export const EXPLORER_DEFAULT_LIMIT = 20;
export const EXPLORER_MAX_LIMIT = 100;

/** Host names and addresses: letters, digits, dots, hyphens; or an IPv6 address in brackets. */
const HOST_PATTERN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])$/;
/** MongoDB's rules for database names (no /\. "$*<>:|? and under 64 bytes), kept to plain characters. */
export const DATABASE_NAME_PATTERN = /^[A-Za-z0-9_-]{1,63}$/;

const whole = (field: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${field} must be a whole number from ${min} to ${max}` })
    .refine((n) => Number.isInteger(n) && n >= min && n <= max, {
      message: `${field} must be a whole number from ${min} to ${max}`,
    });

const text = (field: string, max: number) =>
  z.string({ error: `${field} must be text` }).max(max, `${field} must be at most ${max} characters`);

/** POST /api/admin/mongodb/config and /test. Unknown fields are dropped. */
export const databaseConfigBody = z
  .object({
    host: text('host', 253)
      .trim()
      .regex(HOST_PATTERN, 'host must be a host name or an IP address, like localhost or db.example.com'),
    port: whole('port', 1, 65535),
    database: text('database', 63)
      .trim()
      .regex(DATABASE_NAME_PATTERN, 'database must be 1 to 63 letters, digits, _ or -'),
    username: text('username', 256).trim().default(''),
    /** Empty means "keep the saved password" (it is never sent to the browser). */
    password: text('password', 1024).default(''),
    authEnabled: z.boolean({ error: 'authEnabled must be true or false' }).default(false),
    ssl: z.boolean({ error: 'ssl must be true or false' }).default(false),
    poolSize: whole('poolSize', POOL_SIZE_RANGE.min, POOL_SIZE_RANGE.max).default(DATABASE_DEFAULTS.poolSize),
  })
  .superRefine((value, ctx) => {
    if (value.authEnabled && !value.username) {
      ctx.addIssue({
        code: 'custom',
        path: ['username'],
        message: 'username is required when authentication is on',
      });
    }
  });
export type DatabaseConfigBody = z.infer<typeof databaseConfigBody>;

/** The saved settings as they leave the server: the password never, only whether one is kept. */
export interface PublicDatabaseConfig {
  host: string;
  port: number;
  database: string;
  username: string;
  authEnabled: boolean;
  ssl: boolean;
  poolSize: number;
  passwordSet: boolean;
}

export type StoreKind = 'embedded' | 'mongodb';

/** GET /api/admin/mongodb/config */
export interface DatabaseConfigResponse {
  success: true;
  config: PublicDatabaseConfig;
  /** The store this server process runs on. */
  store: StoreKind;
  /** True when MONGODB_URI is set in the environment: it decides the store, not these settings. */
  environmentOverride: boolean;
}

export interface DatabaseStatus {
  connected: boolean;
  message: string;
  /**
   * True from a saved move until this process is replaced: the server restarts on the new store,
   * so the panel waits for a status that no longer says so. False again when it could not restart.
   */
  restarting: boolean;
  stats: {
    store: StoreKind;
    database: string;
    host: string;
    port: number | null;
    version: string;
    /** Seconds. */
    uptime: number | null;
    /** Where the data is: a folder for the embedded store, host:port/database for MongoDB. */
    location: string;
    environmentOverride: boolean;
  };
}

export interface DatabaseStats {
  database: string;
  collections: number;
  objects: number;
  dataSize: number;
  storageSize: number;
  indexes: number;
  avgObjSize: number;
}

export interface IndexInfo {
  name: string;
  keys: Record<string, number | string>;
  unique: boolean;
  sparse: boolean;
}

export interface CollectionInfo {
  name: string;
  count: number;
  size: number;
  avgObjSize: number;
  storageSize: number;
  indexes: IndexInfo[];
}

export interface DatabaseDetail {
  name: string;
  stats: Omit<DatabaseStats, 'database'>;
  collections: CollectionInfo[];
}

export interface CollectionResult {
  name: string;
  documents: Array<Record<string, unknown>>;
  pagination: { total: number; limit: number; shown: number };
}

/** POST /api/admin/mongodb/test: a failed test is a 200 with `success: false` (see envelopes.ts). */
export interface ConnectionTestResponse extends Outcome {
  connected: boolean;
  message: string;
  /** The driver's own words for a failure, shown one click away from the plain message. */
  detail?: string;
  stats?: { collections: number; documents: number };
  /** Databases on the tested server, for the form's database list. */
  databases?: string[];
}

/** POST /api/admin/mongodb/config */
export interface SaveConfigResponse {
  success: true;
  message: string;
  /** Documents copied per collection; absent when the target already held this site's data. */
  copied?: Record<string, number>;
  /** The server is starting again on the new store; its status answers again within seconds. */
  restarting: boolean;
}

/** A refused POST /api/admin/mongodb/config: the spec's panel reads `error`. */
export type SaveConfigRefusal = RefusalWithError;

/** GET /api/admin/mongodb/status */
export interface DatabaseStatusResponse extends DatabaseStatus {
  success: true;
}

/** GET /api/admin/mongodb/databases */
export interface DatabasesResponse {
  success: true;
  databases: Array<{ name: string }>;
}

/** GET /api/admin/mongodb/database/:name/stats */
export interface DatabaseStatsResponse {
  success: true;
  stats: DatabaseStats;
}

/** GET /api/admin/mongodb/database/:dbName/details */
export interface DatabaseDetailResponse {
  success: true;
  database: DatabaseDetail;
}

/** GET /api/admin/mongodb/database/:dbName/collection/:name */
export interface CollectionResponse {
  success: true;
  collection: CollectionResult;
}

export const explorerLimitQuery = z.object({
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${EXPLORER_MAX_LIMIT}` })
    .int(`limit must be a whole number from 1 to ${EXPLORER_MAX_LIMIT}`)
    .min(1, `limit must be a whole number from 1 to ${EXPLORER_MAX_LIMIT}`)
    // Asking for more is not an error: the answer is capped, as the explorer is for a look, not an export.
    .transform((n) => Math.min(n, EXPLORER_MAX_LIMIT))
    .default(EXPLORER_DEFAULT_LIMIT),
});
