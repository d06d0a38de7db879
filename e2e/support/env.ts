import path from 'node:path';

/**
 * The browser tests run in E2E_WORKERS Playwright workers (playwright.config.ts). Each worker slot
 * (Playwright's TEST_PARALLEL_INDEX: 0, 1, …; a worker that replaces a failed one keeps its slot)
 * has a site of its own, started by global-setup.ts: its own port (E2E_PORT + slot), data folder,
 * mail server and Stripe stand-in, so that a spec that changes the site's settings never meets
 * another spec running at the same time.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
const BASE_PORT = Number(process.env.E2E_PORT ?? 5055);
export const E2E_SLOT = Number(process.env.TEST_PARALLEL_INDEX ?? 0);

/** Where the site of worker slot `slot` listens and keeps its files. */
export function siteOf(slot: number) {
  const port = BASE_PORT + slot;
  const dir = path.resolve(import.meta.dirname, `../../.tmp/e2e-${port}`);
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    dir,
    dataDir: path.join(dir, 'data'),
    mailDir: path.join(dir, 'mail'),
  };
}

const site = siteOf(E2E_SLOT);
/** This worker's site. */
export const E2E_PORT = site.port;
export const E2E_BASE_URL = site.baseUrl;
export const E2E_DIR = site.dir;
export const E2E_DATA_DIR = site.dataDir;
export const E2E_MAIL_DIR = site.mailDir;

/** The environment variable that carries slot `slot`'s Stripe stand-in address to its worker. */
export const stripeUrlVariable = (slot: number) => `E2E_STRIPE_URL_${slot}`;
/**
 * This worker's Stripe stand-in (the payments and selling specs connect the site to it). Read when
 * called: Playwright hands global-setup's environment to a worker after it has loaded the config,
 * which imports this module.
 */
export const e2eStripeUrl = (): string => process.env[stripeUrlVariable(E2E_SLOT)] ?? '';

/**
 * The general API rate limit of the suite's site. Every test signs in, registers and confirms
 * passwords from 127.0.0.1, and those routes are counted per address: the whole suite asks more
 * than the default 100 per 15 minutes of one address. Set in the site's saved settings before it
 * starts (global-setup.ts); specs that change the limit put this back.
 */
export const E2E_RATE_LIMIT_MAX = 1000;

export const ADMIN = { email: 'owner@e2e.test', password: 'owner-password-1' };
