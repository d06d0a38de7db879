// The one template of the site's server block. Seams, in order: the view it is rendered from,
// the TLS settings, the value checks (token, quoted, headerValue), the upstream retry rules, and
// renderSite (the main server, the ACME challenge location, the HTTP-to-HTTPS redirect server).
import type { NginxConfig } from '@common/nginx-defaults';
import { proxyTargetsOf } from '@common/nginx-defaults';

export interface SiteView {
  config: NginxConfig;
  /**
   * `host:port` of the app instance that writes this file. The web-server panel's calls go to it
   * alone: it is the one that drives this nginx, whichever instance a visitor's requests reach.
   */
  panelAddress?: string;
  /** NGINX_LISTEN_ADDRESS; every interface when unset. */
  listenAddress?: string;
  /** Present when SSL is enabled. `hsts` only for a certificate of one's own, never a trial one. */
  ssl?: { cert: string; key: string; hsts: boolean };
  /**
   * The security headers the app sends with its own pages (http/security-headers.ts), sent by
   * nginx with the files it serves itself, so a page is as protected whoever serves it.
   */
  pageHeaders?: Readonly<Record<string, string>>;
  /**
   * The folder of the ACME HTTP-01 challenges (certificates/): served on plain HTTP at
   * /.well-known/acme-challenge/, before any redirect, so a certificate authority can check the domain.
   */
  challengeDir?: string;
}

/**
 * Mozilla's "intermediate" TLS settings (ssl-config.mozilla.org, version 5.7): TLS 1.2 and 1.3,
 * forward-secret AEAD ciphers only (no CBC suite), no session tickets.
 */
export const TLS_SETTINGS = [
  'ssl_protocols TLSv1.2 TLSv1.3;',
  'ssl_ecdh_curve X25519:prime256v1:secp384r1;',
  'ssl_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-CHACHA20-POLY1305;',
  'ssl_prefer_server_ciphers off;',
  'ssl_session_timeout 1d;',
  'ssl_session_cache shared:members_site_ssl:10m;',
  'ssl_session_tickets off;',
];

const YEAR_S = 31_536_000;
const HOUR_S = 3600;

/**
 * Text nginx reads as one token. The form's allow-lists already refuse all of this; the check is
 * repeated here so that no value, from the console or from a file, can reach nginx unchecked.
 */
function token(value: string, what: string): string {
  if (!/^[A-Za-z0-9._~@+,=:/*[\]-]+$/.test(value)) throw new Error(`Unsafe ${what} for nginx: ${value}`);
  return value;
}

/** A path written in double quotes: spaces are fine, nothing that could end the string or the line. */
function quoted(value: string, what: string): string {
  if (!/^\/[A-Za-z0-9._~@+,=:/ -]*$/.test(value)) throw new Error(`Unsafe ${what} for nginx: ${value}`);
  return `"${value}"`;
}

function listen(address: string | undefined, port: number, extra = ''): string {
  const where = address ? `${token(address, 'listen address')}:${port}` : String(port);
  return `listen ${where}${extra};`;
}

/** A header value written in double quotes: the page policy's quotes and semicolons are fine. */
function headerValue(value: string): string {
  if (!/^[A-Za-z0-9 '(),./:;=*_+?@-]*$/.test(value))
    throw new Error(`Unsafe header value for nginx: ${value}`);
  return `"${value}"`;
}

/**
 * How a stopped or failing instance is left out. A request goes to the next instance when the
 * chosen one refuses the connection, breaks it, times out, or answers 502/503 (it is stopping,
 * or cannot reach its media folder); never on 500 or 504, which would run a failing or slow
 * request twice, nor on 429, which would defeat the rate limits. nginx never re-sends a POST,
 * PATCH or LOCK that already reached an instance (no `non_idempotent`): it may have been done.
 * One failure keeps an instance out for 10 s, then nginx tries it again.
 */
export const UPSTREAM_RETRY = {
  nextUpstream: 'error timeout http_502 http_503',
  maxFails: 1,
  failTimeoutSeconds: 10,
  connectTimeoutSeconds: 5,
};

/** `http://host:port/path` → the upstream's address, its scheme and the path to prepend. */
export function splitProxyPass(proxyPass: string): { scheme: string; address: string; path: string } {
  const url = new URL(proxyPass);
  const scheme = url.protocol.replace(':', '');
  const port = url.port || (scheme === 'https' ? '443' : '80');
  const pathname = url.pathname.replace(/\/+$/, '');
  return { scheme, address: `${url.hostname}:${port}`, path: pathname };
}

/**
 * The one template of the managed server-block file. Names are prefixed `members_site_` so the
 * file can sit beside other sites in a system nginx without clashing.
 */
export function renderSite({
  config,
  panelAddress,
  listenAddress,
  ssl,
  pageHeaders = {},
  challengeDir,
}: SiteView): string {
  const nameList = config.serverName.split(' ').map((name) => token(name, 'server name'));
  const names = nameList.join(' ');
  const root = quoted(config.staticRoot, 'static root');
  const targets = proxyTargetsOf(config.proxyPass).map(splitProxyPass);
  const upstream = targets[0];
  if (!upstream) throw new Error('No proxy address for nginx');
  if (targets.some((target) => target.scheme !== upstream.scheme || target.path !== upstream.path)) {
    throw new Error(`Proxy addresses for nginx differ in scheme or path: ${config.proxyPass}`);
  }
  const several = targets.length > 1;
  const bodySize = token(config.maxBodySize, 'body size');
  const httpsSuffix = config.sslPort === 443 ? '' : `:${config.sslPort}`;

  // Set once for the server; each location below that proxies only names the upstream.
  const proxySettings = [
    upstream.scheme === 'https' ? 'proxy_ssl_server_name on;' : '',
    'proxy_http_version 1.1;',
    'proxy_set_header Host $host;',
    'proxy_set_header X-Real-IP $remote_addr;',
    'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    'proxy_set_header X-Forwarded-Host $host;',
    'proxy_set_header Upgrade $http_upgrade;',
    'proxy_set_header Connection $members_site_connection_upgrade;',
    'proxy_read_timeout 300s;',
    ...(several
      ? [
          `proxy_connect_timeout ${UPSTREAM_RETRY.connectTimeoutSeconds}s;`,
          `proxy_next_upstream ${UPSTREAM_RETRY.nextUpstream};`,
        ]
      : []),
  ].filter(Boolean);
  const toApp = [
    upstream.path ? `rewrite ^(.*)$ ${token(upstream.path, 'proxy path')}$1 break;` : '',
    `proxy_pass ${upstream.scheme}://members_site_app;`,
  ].filter(Boolean);

  const gzip = config.gzipEnabled
    ? [
        'gzip on;',
        'gzip_vary on;',
        'gzip_proxied any;',
        'gzip_comp_level 5;',
        'gzip_min_length 256;',
        'gzip_types text/plain text/css text/xml text/javascript application/javascript application/json application/xml application/manifest+json image/svg+xml;',
      ]
    : ['gzip off;'];

  // An add_header in a location hides the server's, so each static location carries all of its own.
  const hsts = ssl?.hsts ? [`add_header Strict-Transport-Security "max-age=${YEAR_S}" always;`] : [];
  const security = Object.entries({ 'x-content-type-options': 'nosniff', ...pageHeaders }).map(
    ([name, value]) => `add_header ${token(name, 'header name')} ${headerValue(value)} always;`,
  );
  const staticHeaders = (cacheControl: string) => [
    `add_header Cache-Control "${config.cacheEnabled ? cacheControl : 'no-cache'}" always;`,
    ...security,
    ...hsts,
  ];
  const block = (head: string, lines: string[]) => [`${head} {`, ...lines.map((line) => `    ${line}`), '}'];
  // `^~`: ahead of the dot-file rule below; only the token files the certificate order writes are there.
  const challenges = challengeDir
    ? [
        '# ACME HTTP-01 challenges: a certificate authority checks the domain here, on plain HTTP.',
        ...block('location ^~ /.well-known/acme-challenge/', [
          `alias ${quoted(`${challengeDir}/`, 'challenge folder')};`,
          'default_type text/plain;',
        ]),
      ]
    : [];

  const site = [
    ssl ? listen(listenAddress, config.sslPort, ' ssl http2') : listen(listenAddress, config.port),
    `server_name ${names};`,
    ...(ssl
      ? [
          `ssl_certificate ${quoted(ssl.cert, 'certificate path')};`,
          `ssl_certificate_key ${quoted(ssl.key, 'key path')};`,
          ...TLS_SETTINGS,
          ...hsts,
        ]
      : []),
    '',
    `client_max_body_size ${bodySize};`,
    ...gzip,
    ...proxySettings,
    '',
    ...(ssl ? [] : challenges),
    `root ${root};`,
    '# Files in the static root are served by nginx; everything else goes to the app.',
    ...block('location /', [
      'try_files $uri @members_site_app;',
      ...staticHeaders(`public, max-age=${HOUR_S}`),
    ]),
    // Hashed build files never change under the same name.
    ...block('location /assets/', [
      'try_files $uri @members_site_app;',
      ...staticHeaders(`public, max-age=${YEAR_S}, immutable`),
    ]),
    '# The page itself always comes from the app, with its security headers.',
    ...block('location = /', toApp),
    ...block('location = /index.html', toApp),
    // The media library is the app's to serve, its copies' folder `.copies` included: `^~` keeps
    // the dot-file rule below from refusing them (the app refuses every other dot name itself).
    ...block('location ^~ /media/', toApp),
    ...block('location ~ /\\.', ['deny all;']),
    '# Source maps stay on the disk: they describe the code to anyone who asks.',
    ...block('location ~ \\.map$', ['return 404;']),
    ...(several && panelAddress
      ? [
          '# The web-server panel talks to the instance that drives this nginx.',
          ...block('location /api/system/', ['proxy_pass http://members_site_panel;']),
        ]
      : []),
    ...block('location @members_site_app', toApp),
  ];

  // The redirect never goes to whatever Host the client sent: to that name only when it is one of
  // the configured names, else to the first configured name, else (with `_` or only wildcards)
  // to the address nginx was reached on.
  const plainName = nameList.find((name) => name !== '_' && !name.startsWith('*'));
  const matched = nameList.filter((name) => name !== '_');
  const redirect = ssl
    ? [
        '',
        ...block('map $server_addr $members_site_server_host', [
          '~: [$server_addr];',
          'default $server_addr;',
        ]),
        ...block('map $host $members_site_https_host', [
          'hostnames;',
          `default ${plainName ?? '$members_site_server_host'};`,
          ...matched.map((name) => `${name} $host;`),
        ]),
        '',
        '# Plain HTTP only redirects to HTTPS.',
        ...block('server', [
          listen(listenAddress, config.port),
          `server_name ${names};`,
          ...challenges,
          ...block('location /', [`return 301 https://$members_site_https_host${httpsSuffix}$request_uri;`]),
        ]),
      ]
    : [];

  return [
    '# Managed by the members site console: every save replaces this file (see its history there).',
    '',
    ...block('map $http_upgrade $members_site_connection_upgrade', ['default upgrade;', "''      '';"]),
    '',
    ...block('upstream members_site_app', [
      ...targets.map((target) =>
        several
          ? `server ${token(target.address, 'proxy address')} max_fails=${UPSTREAM_RETRY.maxFails} fail_timeout=${UPSTREAM_RETRY.failTimeoutSeconds}s;`
          : `server ${token(target.address, 'proxy address')};`,
      ),
      'keepalive 32;',
    ]),
    '',
    ...(several && panelAddress
      ? [...block('upstream members_site_panel', [`server ${token(panelAddress, 'panel address')};`]), '']
      : []),
    ...block('server', site).map((line) => line.trimEnd()),
    ...redirect,
    '',
  ].join('\n');
}
