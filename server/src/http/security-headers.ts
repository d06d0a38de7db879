import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * Strict headers for the app's own pages. Media responses add their own sandboxing policy
 * on top (see the media feature), because uploaded files are not trusted like our code is.
 */
const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // TLS is ended by nginx when it is enabled; HSTS belongs there, not on plain-HTTP localhost.
  strictTransportSecurity: false,
  crossOriginEmbedderPolicy: false,
};

/** What any response carries anyway; everything else helmet set is a security header. */
const NOT_SECURITY = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * API answers (JSON, a CSV export, the default backgrounds' SVG) are never pages: the headers
 * that govern documents (opener and agent-cluster isolation, DNS prefetching, legacy download
 * and XSS filters, Flash policies) do nothing for them. They get the ones that do: no type
 * sniffing, no reading from other origins, and a policy under which, opened directly, nothing
 * loads, runs or frames them (stricter than the pages' own).
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
});

/**
 * The headers are the same on every response of a kind, so they are worked out once: for pages
 * and files, by helmet itself on a probe request at start-up; for the API, the list above.
 * @fastify/helmet registered as usual would rebuild its middleware (and re-parse the policy) on
 * every request, which cost about a fifth of the throughput of GET /api/slider/public; the
 * document headers on API answers cost about another tenth and protected nothing.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const pageHeaders = await pageSecurityHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/api/')) {
      // Answers may hold someone's data: no browser or proxy keeps a copy unless the route says
      // it may (the slideshow's public data and default backgrounds set their own).
      reply.headers(API_SECURITY_HEADERS).header('cache-control', 'no-store');
    } else reply.headers(pageHeaders);
    done();
  });
}

let pageHeaders: Promise<Record<string, string>> | undefined;

/** The headers of the app's pages; nginx sends the same with the files it serves (16.19). */
export function pageSecurityHeaders(): Promise<Record<string, string>> {
  pageHeaders ??= helmetHeaders(HELMET_OPTIONS);
  return pageHeaders;
}

export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get('/', () => '');
  const response = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (!NOT_SECURITY.has(name) && typeof value === 'string') headers[name] = value;
  }
  if (!headers['content-security-policy']) throw new Error('helmet set no Content-Security-Policy');
  return Object.freeze(headers);
}
