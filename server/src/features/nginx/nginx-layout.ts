import path from 'node:path';
import type { NginxSettings } from '../../settings/nginx-settings';

/** Where everything of one nginx lives, for the managed instance or the machine's own. */
export interface NginxLayout {
  mode: NginxSettings['mode'];
  /** The managed instance's prefix folder; also where the console keeps its settings and history. */
  dir: string;
  /** The main file nginx is started with (`-c`). */
  mainConf: string;
  /** The one server-block file the console writes. */
  siteFile: string;
  pidFile: string;
  errorLog: string;
  /** Default home of the HTTPS certificate and key (cert.pem, key.pem). */
  sslDir: string;
  settingsFile: string;
  historyFile: string;
  /** The ACME account key and the certificate order's state (certificates/), the owner's alone. */
  acmeDir: string;
  /** The HTTP-01 challenge tokens nginx serves at /.well-known/acme-challenge/: readable by nginx's workers. */
  challengeDir: string;
}

export function nginxLayout(settings: NginxSettings): NginxLayout {
  const dir = settings.dir;
  const common = {
    dir,
    sslDir: path.join(dir, 'ssl'),
    settingsFile: path.join(dir, 'config.json'),
    historyFile: path.join(dir, 'history.json'),
    acmeDir: path.join(dir, 'acme'),
    challengeDir: path.join(dir, 'acme-challenge'),
  };
  if (settings.mode === 'system' && settings.mainConf && settings.siteFile) {
    return {
      ...common,
      mode: 'system',
      mainConf: settings.mainConf,
      siteFile: settings.siteFile,
      pidFile: settings.pidFile ?? '/run/nginx.pid',
      errorLog: settings.errorLog ?? '/var/log/nginx/error.log',
    };
  }
  return {
    ...common,
    mode: 'managed',
    mainConf: path.join(dir, 'conf', 'nginx.conf'),
    siteFile: path.join(dir, 'conf', 'site.conf'),
    pidFile: path.join(dir, 'logs', 'nginx.pid'),
    errorLog: path.join(dir, 'logs', 'error.log'),
  };
}

/**
 * What nginx's workers need under DATA_DIR (see lib/private-files.ts): to pass through DATA_DIR,
 * the managed instance's folder and its temp folder, whose subfolders nginx makes for itself.
 * The media library stays as uploads left it.
 */
export function dataDirRules(config: { dataDir: string; nginx: NginxSettings }): {
  passable: string[];
  skip: string[];
} {
  const dir = config.nginx.dir;
  return {
    passable: [config.dataDir, dir, path.join(dir, 'temp')],
    skip: [
      path.join(config.dataDir, 'media'),
      // Challenge tokens are public by nature (nginx serves them to anyone asking).
      path.join(dir, 'acme-challenge'),
      ...TEMP_PATHS.map((name) => path.join(dir, 'temp', name)),
    ],
  };
}

/** The arguments that point nginx at this configuration (`-p` only for the managed instance). */
export function configArgs(layout: NginxLayout, mainConf = layout.mainConf): string[] {
  return layout.mode === 'managed' ? ['-p', `${layout.dir}/`, '-c', mainConf] : ['-c', mainConf];
}

const TEMP_PATHS = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'] as const;

/** Common types of a site's static files (nginx's own mime.types lives elsewhere on each system). */
const MIME_TYPES: Record<string, string> = {
  'text/html': 'html htm',
  'text/css': 'css',
  'text/plain': 'txt',
  'text/xml': 'xml',
  'application/javascript': 'js mjs',
  'application/json': 'json map',
  'application/manifest+json': 'webmanifest',
  'application/wasm': 'wasm',
  'application/pdf': 'pdf',
  'image/svg+xml': 'svg svgz',
  'image/png': 'png',
  'image/jpeg': 'jpg jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/x-icon': 'ico',
  'font/woff': 'woff',
  'font/woff2': 'woff2',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'video/mp4': 'mp4 m4v',
  'video/webm': 'webm',
};

/** A password-reset link's token, in a request line or a Referer, is logged as [token]. */
const WITHOUT_TOKEN = (variable: string, result: string) => [
  `map ${variable} ${result} {`,
  `    "~^(?<${result.slice(1)}_head>.*?/reset-password/)[^/? ]+(?<${result.slice(1)}_tail>.*)$" "\${${result.slice(1)}_head}[token]\${${result.slice(1)}_tail}";`,
  `    default ${variable};`,
  '}',
];

/** nginx's usual "combined" format, with reset tokens masked (16.13). */
const ACCESS_LOG_FORMAT = [
  ...WITHOUT_TOKEN('$request', '$members_site_logged_request'),
  ...WITHOUT_TOKEN('$http_referer', '$members_site_logged_referer'),
  'log_format members_site \'$remote_addr - $remote_user [$time_local] "$members_site_logged_request" \'',
  '                        \'$status $body_bytes_sent "$members_site_logged_referer" "$http_user_agent"\';',
];

/**
 * The managed instance's main file: the product owns it whole and rewrites it on every save.
 * It runs as whoever runs the app (when that is root, nginx's workers drop to `nobody`).
 */
export function renderMainConf(layout: NginxLayout, siteFile: string): string {
  const at = (...parts: string[]) => quotedPath(path.join(layout.dir, ...parts));
  const types = Object.entries(MIME_TYPES).map(([type, extensions]) => `        ${type} ${extensions};`);
  return [
    "# Managed by the members site: rewritten on every save of the console's Nginx section.",
    'worker_processes auto;',
    `pid ${quotedPath(layout.pidFile)};`,
    // notice level: the reload check reads "start worker process" and [emerg] lines from here.
    `error_log ${quotedPath(layout.errorLog)} notice;`,
    '',
    'events {',
    '    worker_connections 1024;',
    '}',
    '',
    'http {',
    '    types {',
    ...types,
    '    }',
    '    default_type application/octet-stream;',
    ...ACCESS_LOG_FORMAT.map((line) => `    ${line}`),
    `    access_log ${at('logs', 'access.log')} members_site;`,
    ...TEMP_PATHS.map((name) => `    ${name}_temp_path ${at('temp', name)};`),
    '    sendfile on;',
    '    tcp_nopush on;',
    '    keepalive_timeout 65;',
    '    server_tokens off;',
    '',
    `    include ${quotedPath(siteFile)};`,
    '}',
    '',
  ].join('\n');
}

/** DATA_DIR comes from the environment, yet it is checked like anything else written into nginx. */
function quotedPath(value: string): string {
  if (!/^\/[A-Za-z0-9._~@+,=:/ -]*$/.test(value)) {
    throw new Error(`nginx cannot safely be given the path ${JSON.stringify(value)}: use plain characters`);
  }
  return `"${value}"`;
}
