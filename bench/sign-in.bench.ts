// Sign-in time, two ways, against `npm start` (default settings) on a fresh data dir:
//   api:     POST /api/auth/login round trip (argon2id verification dominates)
//   browser: in headless Chromium, from clicking "Sign In" until the dashboard text shows
// Usage: npx tsx bench/sign-in.bench.ts   (needs /usr/bin/chromium for the browser part)
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { startProduct } from './support/product';

const RUNS = 20;
const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-signin-'));
// npm start as people run it (it builds the client first when that is stale).
const server = await startProduct({ dataDir, logFile: path.join(dataDir, 'server.log') });
const person = { name: 'Bench Person', email: 'bench@example.com', password: 'bench-password' };

try {
  await post('/api/auth/register', person);

  const api: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const response = await post('/api/auth/login', { email: person.email, password: person.password });
    if (response.status !== 200) throw new Error(`login answered ${response.status}`);
    api.push(performance.now() - started);
  }
  report('api', api);

  if (existsSync('/usr/bin/chromium')) {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
    const ui: number[] = [];
    // Fewer runs than the API: each browser sign-in is also a sign-in attempt against the rate limit.
    for (let i = 0; i < 10; i++) {
      const page = await browser.newPage();
      await page.goto(`${server.url}/login`);
      await page.getByLabel('Email').fill(person.email);
      await page.getByLabel('Password', { exact: true }).fill(person.password);
      const started = performance.now();
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText('This is your user dashboard.').waitFor();
      ui.push(performance.now() - started);
      await page.close();
    }
    report('browser', ui);
    await browser.close();
  } else {
    console.log('browser: skipped (no /usr/bin/chromium)');
  }
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}

function post(url: string, body: unknown) {
  return fetch(`${server.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function report(label: string, samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  console.log(
    `sign-in ${label.padEnd(8)} median ${at(0.5)} ms   p95 ${at(0.95)} ms   (${samples.length} runs)`,
  );
}
