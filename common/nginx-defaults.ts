/*
 * The web-server panel's settings type and constants, kept apart from the zod schemas so that
 * the console panel does not pull the validation library in with them.
 */

/** The web-server settings the console edits. */
export interface NginxConfig {
  /** One or more host names, separated by spaces. */
  serverName: string;
  port: number;
  sslPort: number;
  sslEnabled: boolean;
  /**
   * Where nginx forwards what it does not serve itself: one or more `http(s)://host[:port][/path]`
   * separated by spaces (several app instances behind one nginx; they share one scheme and path).
   */
  proxyPass: string;
  /** An absolute folder whose files nginx serves directly (the built web client by default). */
  staticRoot: string;
  /** A size with an optional unit, as nginx reads it: `512M`, `100k`, `0` (no limit). */
  maxBodySize: string;
  gzipEnabled: boolean;
  cacheEnabled: boolean;
}

/**
 * The web server's defaults. The proxy target and the static root depend on the app, so the server
 * adds them.
 */
export const NGINX_DEFAULTS = {
  serverName: 'localhost',
  port: 80,
  sslPort: 443,
  sslEnabled: false,
  maxBodySize: '512M',
  gzipEnabled: true,
  cacheEnabled: true,
} as const satisfies Partial<NginxConfig>;

/** The form's labels, also used to name a refused field in the server's answer. */
export const NGINX_FIELD_LABELS: Record<keyof NginxConfig, string> = {
  serverName: 'Server name',
  port: 'HTTP port',
  sslPort: 'HTTPS port',
  sslEnabled: 'SSL enabled',
  proxyPass: 'Proxy pass',
  staticRoot: 'Static files root',
  maxBodySize: 'Max body size',
  gzipEnabled: 'Gzip compression',
  cacheEnabled: 'Static cache',
};

/** More app instances than this behind one nginx is a job for a load balancer of its own. */
export const MAX_PROXY_TARGETS = 16;

/** The proxy pass field holds one address or several separated by spaces: each app instance nginx forwards to. */
export function proxyTargetsOf(proxyPass: string): string[] {
  return proxyPass.split(' ').filter(Boolean);
}
