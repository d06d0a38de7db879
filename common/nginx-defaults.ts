import type { NginxConfig } from '@common/schemas/nginx';

/*
 * The web-server panel's constants, kept apart from the zod schemas so that the console panel
 * does not pull the validation library in with them.
 */

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
