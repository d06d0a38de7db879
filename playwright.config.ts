import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { E2E_BASE_URL, E2E_WORKERS } from './e2e/support/env';

/** Debian's Chromium: Playwright cannot download its own browser on these machines. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  const message = `Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\`.`;
  // On CI a missing browser is a failure, never a quiet skip.
  if (process.env.CI) throw new Error(message);
  console.warn(`${message} Browser tests are skipped.`);
}

export default defineConfig({
  testDir: 'e2e',
  testIgnore: hasChromium ? [] : ['**/*'],
  globalSetup: './e2e/support/global-setup.ts',
  // A spec file runs in one worker, its tests in order; each worker has a site of its own
  // (e2e/support/env.ts), so files run side by side. E2E_WORKERS=1 runs them one at a time.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI
    ? [['list']]
    : [['list'], ['html', { open: 'never', outputFolder: '.tmp/playwright-report' }]],
  outputDir: '.tmp/test-results',
  use: {
    // Read in each worker, where E2E_BASE_URL is that worker's own site.
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
});
