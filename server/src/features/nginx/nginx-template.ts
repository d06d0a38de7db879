import type { NginxConfig } from '@common/schemas/nginx';

export interface SiteView {
  config: NginxConfig;
  /** NGINX_LISTEN_ADDRESS; every interface when unset. */
  listenAddress?: string;
  /** Present when SSL is enabled. `hsts` only for a certificate of one's own, never a trial one. */
  ssl?: { cert: string; key: string; hsts: boolean };
}

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
export function renderSite({ config, listenAddress, ssl }: SiteView): string {
  const names = config.serverName
    .split(' ')
    .map((name) => token(name, 'server name'))
    .join(' ');
  const root = quoted(config.staticRoot, 'static root');
  const upstream = splitProxyPass(config.proxyPass);
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
  const staticHeaders = (cacheControl: string) => [
    `add_header Cache-Control "${config.cacheEnabled ? cacheControl : 'no-cache'}" always;`,
    'add_header X-Content-Type-Options nosniff always;',
    ...hsts,
  ];
  const block = (head: string, lines: string[]) => [`${head} {`, ...lines.map((line) => `    ${line}`), '}'];

  const site = [
    ssl ? listen(listenAddress, config.sslPort, ' ssl http2') : listen(listenAddress, config.port),
    `server_name ${names};`,
    ...(ssl
      ? [
          `ssl_certificate ${quoted(ssl.cert, 'certificate path')};`,
          `ssl_certificate_key ${quoted(ssl.key, 'key path')};`,
          'ssl_protocols TLSv1.2 TLSv1.3;',
          'ssl_session_cache shared:members_site_ssl:10m;',
          ...hsts,
        ]
      : []),
    '',
    `client_max_body_size ${bodySize};`,
    ...gzip,
    ...proxySettings,
    '',
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
    ...block('location ~ /\\.', ['deny all;']),
    ...block('location @members_site_app', toApp),
  ];

  const redirect = ssl
    ? [
        '',
        '# Plain HTTP only redirects to HTTPS.',
        ...block('server', [
          listen(listenAddress, config.port),
          `server_name ${names};`,
          `return 301 https://$host${httpsSuffix}$request_uri;`,
        ]),
      ]
    : [];

  return [
    '# Managed by the members site console: every save replaces this file (see its history there).',
    '',
    ...block('map $http_upgrade $members_site_connection_upgrade', ['default upgrade;', "''      '';"]),
    '',
    ...block('upstream members_site_app', [
      `server ${token(upstream.address, 'proxy address')};`,
      'keepalive 32;',
    ]),
    '',
    ...block('server', site).map((line) => line.trimEnd()),
    ...redirect,
    '',
  ].join('\n');
}
