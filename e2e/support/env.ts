import path from 'node:path';

/** The browser tests run their own server on this port, with its own data and mail server. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 5055);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DIR = path.resolve(import.meta.dirname, `../../.tmp/e2e-${E2E_PORT}`);
export const E2E_DATA_DIR = path.join(E2E_DIR, 'data');
export const E2E_MAIL_DIR = path.join(E2E_DIR, 'mail');

/**
 * The general API rate limit of the suite's site. Every test signs in, registers and confirms
 * passwords from 127.0.0.1, and those routes are counted per address: the whole suite asks more
 * than the default 100 per 15 minutes of one address. Set in the site's saved settings before it
 * starts (global-setup.ts); specs that change the limit put this back.
 */
export const E2E_RATE_LIMIT_MAX = 1000;

export const ADMIN = { email: 'owner@e2e.test', password: 'owner-password-1' };
