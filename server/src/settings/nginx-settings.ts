import path from 'node:path';
import { z } from 'zod';

/**
 * Which nginx the console drives. Set only by the environment (read in config.ts): the binary
 * and every command are never settable from the console.
 */
export interface NginxSettings {
  /** 'managed': the app's own instance under DATA_DIR/nginx; 'system': the machine's nginx. */
  mode: 'managed' | 'system';
  /** NGINX_BIN as given; unset means `nginx` on PATH, else /usr/sbin/nginx. */
  bin?: string;
  /** PATH, where a bare binary name is looked up. */
  searchPath: string;
  /** The folder of the managed instance (prefix, conf/, logs/, temp/, ssl/) and the saved settings. */
  dir: string;
  /** System mode: the main config file (`nginx -c`). */
  mainConf?: string;
  /** System mode: the one server-block file the console writes. */
  siteFile?: string;
  /** System mode: argument lists to reload and to start nginx instead of `nginx -s reload` / `nginx`. */
  reloadCommand?: string[];
  startCommand?: string[];
  pidFile?: string;
  errorLog?: string;
  /** The address nginx listens on; unset means every interface. */
  listenAddress?: string;
  /** A certificate and key of one's own for HTTPS (both or neither). */
  sslCert?: string;
  sslKey?: string;
  /** ACME_CA_FILE: the CA (PEM) of a private ACME server's HTTPS, trusted beside the usual ones. */
  acmeCaFile?: string;
}

const optional = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();
const absolute = optional.refine(
  (value) => value === undefined || path.isAbsolute(value),
  'must be absolute',
);

/** An argument list: a JSON array of strings, or words separated by spaces. Never run through a shell. */
const command = optional.transform((value, ctx) => {
  if (value === undefined) return undefined;
  if (!value.startsWith('[')) return value.split(/\s+/);
  try {
    const list = JSON.parse(value) as unknown;
    if (Array.isArray(list) && list.length > 0 && list.every((part) => typeof part === 'string')) return list;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: 'custom', message: 'must be a JSON array of strings or words separated by spaces' });
  return z.NEVER;
});

/** The environment variables, spread into config.ts's schema. */
export const nginxEnvFields = {
  NGINX_BIN: optional,
  NGINX_CONF: absolute,
  NGINX_SITE_FILE: absolute,
  NGINX_RELOAD_CMD: command,
  NGINX_START_CMD: command,
  NGINX_PID_FILE: absolute,
  NGINX_ERROR_LOG: absolute,
  NGINX_LISTEN_ADDRESS: optional.refine(
    (value) =>
      value === undefined || /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\]|localhost)$/.test(value),
    'must be an IPv4 address, [IPv6] address or localhost',
  ),
  NGINX_SSL_CERT: absolute,
  NGINX_SSL_KEY: absolute,
  ACME_CA_FILE: absolute,
  PATH: z.string().optional(),
};

type NginxEnv = { [K in keyof typeof nginxEnvFields]?: z.infer<(typeof nginxEnvFields)[K]> };

/** Settings that only make sense together; reported with the rest of config.ts's problems. */
export function checkNginxEnv(env: NginxEnv, ctx: z.RefinementCtx): void {
  if (Boolean(env.NGINX_CONF) !== Boolean(env.NGINX_SITE_FILE)) {
    ctx.addIssue({
      code: 'custom',
      path: ['NGINX_SITE_FILE'],
      message: 'NGINX_CONF and NGINX_SITE_FILE go together',
    });
  }
  if (Boolean(env.NGINX_SSL_CERT) !== Boolean(env.NGINX_SSL_KEY)) {
    ctx.addIssue({
      code: 'custom',
      path: ['NGINX_SSL_KEY'],
      message: 'NGINX_SSL_CERT and NGINX_SSL_KEY go together',
    });
  }
}

export function nginxSettings(env: NginxEnv, dataDir: string): NginxSettings {
  const system = Boolean(env.NGINX_CONF);
  return {
    mode: system ? 'system' : 'managed',
    bin: env.NGINX_BIN,
    searchPath: env.PATH ?? '',
    dir: path.join(dataDir, 'nginx'),
    mainConf: env.NGINX_CONF,
    siteFile: env.NGINX_SITE_FILE,
    reloadCommand: env.NGINX_RELOAD_CMD,
    startCommand: env.NGINX_START_CMD,
    pidFile: env.NGINX_PID_FILE ?? (system ? '/run/nginx.pid' : undefined),
    errorLog: env.NGINX_ERROR_LOG ?? (system ? '/var/log/nginx/error.log' : undefined),
    listenAddress: env.NGINX_LISTEN_ADDRESS,
    sslCert: env.NGINX_SSL_CERT,
    sslKey: env.NGINX_SSL_KEY,
    acmeCaFile: env.ACME_CA_FILE,
  };
}
