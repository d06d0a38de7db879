import {
  MAX_PROXY_TARGETS,
  NGINX_DEFAULTS,
  NGINX_FIELD_LABELS,
  type NginxConfig,
  proxyTargetsOf,
} from '@common/nginx-defaults';
import { z } from 'zod';
import type { DataAnswer, RefusalWithError } from './envelopes';

// Every text field is matched against an allow-list of its own, never a deny-list: nothing that
// could end or add an nginx directive (; { } # $ quotes backslashes CR LF tabs...) can pass.
const HOST_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST_NAME = `${HOST_LABEL}(?:\\.${HOST_LABEL})*`;
const SERVER_NAME = new RegExp(`^(?:_|(?:\\*\\.)?${HOST_NAME})$`);
const PROXY_PASS = new RegExp(
  `^https?://(?:${HOST_NAME}|\\[[0-9A-Fa-f:.]{2,45}\\])(?::(\\d{1,5}))?(?:/[A-Za-z0-9._~/-]*)?$`,
);
const BODY_SIZE = /^\d{1,9}[kKmMgG]?$/;
/** Plain path characters only; a space is allowed because the path is written quoted. */
const FOLDER = /^\/[A-Za-z0-9._@+,=~ /-]*$/;
const MAX_SERVER_NAMES = 10;

const spacesTrimmed = (value: string) => value.replace(/^ +| +$/g, '');

function text(label: string, max: number, check: (value: string) => boolean, rule: string) {
  return z
    .string({ error: `${label} must be text` })
    .transform(spacesTrimmed)
    .refine((value) => value.length > 0, `${label} is required`)
    .refine((value) => value.length <= max && check(value), `${label} ${rule}`);
}

/**
 * Ports are parsed as integers, and text that is not a number at all falls back
 * to the default. Text that mixes digits with anything else (`1e3`, `80abc`, `8 0`) is refused:
 * reading its leading digits would quietly save another port (`1e3` as 1). Punctuation or
 * control characters are refused outright too.
 */
function port(label: string, fallback: number) {
  const range = `${label} must be a whole number from 1 to 65535`;
  return z
    .union([z.number(), z.string()], { error: `${label} must be a number` })
    .refine((value) => {
      if (typeof value === 'number') return true;
      const trimmed = spacesTrimmed(value);
      return /^\d+$/.test(trimmed) || /^[A-Za-z ]*$/.test(trimmed);
    }, range)
    .transform((value) => {
      const parsed = typeof value === 'number' ? value : Number.parseInt(spacesTrimmed(value), 10);
      return Number.isNaN(parsed) ? fallback : parsed;
    })
    .refine((value) => Number.isInteger(value) && value >= 1 && value <= 65535, range);
}

const PROXY_RULE =
  'must look like http://host:port or https://host:port/path (letters, digits, dots, hyphens and slashes)';

function isProxyTarget(value: string): boolean {
  if (value.length > 300) return false;
  const match = PROXY_PASS.exec(value);
  // A path with `.` or `..` segments or `//` would be normalised by the app into another one.
  const pathPart = value.replace(/^https?:\/\/[^/]*/, '');
  return (
    Boolean(match) &&
    (match?.[1] === undefined || Number(match[1]) <= 65535) &&
    !/\/\.{1,2}(?:\/|$)|\/\//.test(pathPart)
  );
}

/** `http://Host` and `http://host:80/` are one instance: scheme, lower-case host, port, path. */
function sameTarget(value: string): string {
  const url = new URL(value);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.protocol}//${url.hostname.toLowerCase()}:${port}${url.pathname.replace(/\/+$/, '')}`;
}

/** Scheme and path: nginx sends every request to one upstream group through one `proxy_pass`. */
function schemeAndPath(value: string): string {
  const url = new URL(value);
  return `${url.protocol}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * One or more app addresses separated by spaces (a single one is the spec's shape and reads as
 * before). Each is checked on its own allow-list and a refusal names the one at fault.
 */
function proxyTargets() {
  const label = NGINX_FIELD_LABELS.proxyPass;
  return z
    .string({ error: `${label} must be text` })
    .transform(spacesTrimmed)
    .superRefine((value, ctx) => {
      const targets = proxyTargetsOf(value);
      // `targets`: the places in the list of the addresses at fault, so the panel marks them.
      const refuse = (message: string, targets?: number[]) =>
        ctx.addIssue({ code: 'custom', message, params: targets ? { targets } : undefined });
      if (targets.length === 0) return refuse(`${label} is required`);
      if (targets.length > MAX_PROXY_TARGETS) {
        return refuse(`${label} may list at most ${MAX_PROXY_TARGETS} addresses`);
      }
      const bad = targets.findIndex((target) => !isProxyTarget(target));
      if (bad !== -1) {
        const words =
          targets.length === 1 ? `${label} ${PROXY_RULE}` : `${label} ${targets[bad]} ${PROXY_RULE}`;
        return refuse(words, [bad]);
      }
      const seen = new Set<string>();
      for (const [index, target] of targets.entries()) {
        const key = sameTarget(target);
        if (seen.has(key)) return refuse(`${label} lists ${target} twice`, [index]);
        seen.add(key);
      }
      const first = schemeAndPath(targets[0] as string);
      const other = targets.findIndex((target) => schemeAndPath(target) !== first);
      if (other !== -1) {
        return refuse(`${label} ${targets[other]} must use the same scheme and path as ${targets[0]}`, [
          other,
        ]);
      }
    })
    .transform((value) => proxyTargetsOf(value).join(' '));
}

const flag = (label: string) => z.boolean({ error: `${label} must be true or false` });

/** POST /api/system/config and /api/system/nginx/config. Unknown fields are dropped. */
export const nginxConfigBody = z.object({
  serverName: text(
    NGINX_FIELD_LABELS.serverName,
    255,
    (value) => {
      const names = value.split(/ +/);
      return names.length <= MAX_SERVER_NAMES && names.every((name) => SERVER_NAME.test(name));
    },
    'may only hold host names separated by spaces (letters, digits, dots and hyphens; *.example.com and _ are allowed)',
  ),
  port: port(NGINX_FIELD_LABELS.port, NGINX_DEFAULTS.port),
  sslPort: port(NGINX_FIELD_LABELS.sslPort, NGINX_DEFAULTS.sslPort),
  sslEnabled: flag(NGINX_FIELD_LABELS.sslEnabled),
  proxyPass: proxyTargets(),
  staticRoot: text(
    NGINX_FIELD_LABELS.staticRoot,
    1024,
    (value) => FOLDER.test(value) && !/\/\.{1,2}(?:\/|$)|\/\//.test(value),
    'must be an absolute folder such as /var/www/site (letters, digits, spaces and ._-@+,=~ only)',
  ).transform((value) => (value.length > 1 ? value.replace(/\/$/, '') : value)),
  maxBodySize: text(
    NGINX_FIELD_LABELS.maxBodySize,
    10,
    (value) => BODY_SIZE.test(value),
    'must be a whole number with an optional unit k, m or g, such as 512M',
  ),
  gzipEnabled: flag(NGINX_FIELD_LABELS.gzipEnabled),
  cacheEnabled: flag(NGINX_FIELD_LABELS.cacheEnabled),
});

export type NginxState = 'running' | 'stopped' | 'error' | 'unknown';

/**
 * GET /api/system/status, in the spec's own shape (see envelopes.ts). `state` and `message` add
 * to the spec's `running` and `stats`.
 */
export interface NginxStatusResponse {
  success: true;
  running: boolean;
  state: NginxState;
  message: string;
  /** 'managed': the app's own nginx under DATA_DIR/nginx; 'system': the machine's nginx. */
  mode: 'managed' | 'system';
  stats: { version: string | null; processes: number };
}

export interface NginxHistoryEntry {
  id: string;
  savedAt: string;
  /** The e-mail address of the administrator who saved it. */
  savedBy: string;
  config: NginxConfig;
  /** The server-block file exactly as it was written. */
  rendered: string;
  /** Set when this version was made by restoring an older one. */
  restoredFrom?: string;
}

/** GET /api/system/nginx/history `data`: newest first, and the file nginx reads now. */
export interface NginxHistory {
  entries: NginxHistoryEntry[];
  current: string | null;
}

/** GET /api/system/config */
export type NginxConfigResponse = DataAnswer<NginxConfig>;

/** POST /api/system/config, /api/system/nginx/config and /api/system/nginx/history/:id/restore. */
export interface NginxSaveResponse {
  success: true;
  message: string;
  data: NginxConfig;
  /** A save on a self-signed trial certificate says so here. */
  warning?: string;
}

/** POST /api/system/restart: a graceful reload of the running nginx, or a start of a stopped one. */
export interface NginxRestartResponse {
  success: true;
  action: 'reloaded' | 'started';
  message: string;
}

/** GET /api/system/nginx/history */
export type NginxHistoryResponse = DataAnswer<NginxHistory>;

/**
 * Every refusal under /api/system: the spec's panel reads `error`; a refused form field is named,
 * and for the proxy addresses, the places in the list of those at fault (`targets`).
 */
export type NginxRefusal = RefusalWithError<{ field?: keyof NginxConfig; targets?: number[] }>;
