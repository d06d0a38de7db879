// The owner's figures at the scale (defaults: 1,000,000 members, 10 progress rows each =
// 10,000,000, 10,000,000 page views), seeded straight into the store file before the product
// starts (bench/support/seed-figures.ts: members and progress in SQL, indexes built after, the
// courses' roll-ups and the members' sign-ups by day worked out from the same numbers, a few rows
// read back through the store and compared with what the product writes), then ten years of
// daily roll-ups (revenue subscriptions at two prices, course sales, 20 sources, 30 pages whose
// page views add up to `--views`); then `npm start` and p50/p95 of each figure over HTTP, one
// request at a time, beside yardsticks measured in the same run: `/api/health`, the Dashboard's
// live counts (`/api/admin/stats`) and the page-view beacon (`POST /api/visits`, which the page
// never waits for).
// Usage: npx tsx bench/figures.bench.ts [--members N] [--progress N] [--views N] [--runs N]
//        [--data-dir DIR]   (target: every figure p95 < 100 ms; a seeded DIR is reused)
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FigureDaysRepository } from '../server/src/features/figures/figure-days.repository';
import { addDays } from '../server/src/features/figures/periods';
import { openEmbeddedStore } from '../server/src/store/sqlite/store';
import { signIn, startProduct } from './support/product';
import { seedFigureSite } from './support/seed-figures';

const TARGET_P95_MS = 100;
const { values } = parseArgs({
  options: {
    members: { type: 'string', default: '1000000' },
    progress: { type: 'string', default: '10' },
    views: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '100' },
    'data-dir': { type: 'string' },
  },
});
const MEMBERS = Number(values.members);
const VIEWS = Number(values.views);
const RUNS = Number(values.runs);
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };
const JWT_SECRET = 'figures-bench-secret-0123456789abcdef';
const DAYS = 3650;
const PAGES = [
  '/',
  '/courses',
  '/join',
  '/login',
  ...Array.from({ length: 26 }, (_, i) => `/courses/course-${i}`),
];
const SOURCES = Array.from({ length: 20 }, (_, i) => `source-${i}`);

const dataDir = values['data-dir'] ?? (await mkdtemp(path.join(tmpdir(), 'bench-figures-')));
/** Written once the seed is whole: a folder without it was cut short (start again in an empty one). */
const SEEDED_MARK = path.join(dataDir, 'figures-seeded');
if (!existsSync(SEEDED_MARK)) {
  if (existsSync(path.join(dataDir, 'db')))
    throw new Error(`${dataDir} holds a seed cut short: remove it and run again`);
  const seeding = performance.now();
  const { memberDays } = await seedFigureSite({
    dataDir,
    members: MEMBERS,
    progressPerMember: Number(values.progress),
    courses: 100,
    log: (line) => console.log(line),
  });
  await seedRollUps(memberDays);
  await writeFile(SEEDED_MARK, new Date().toISOString());
  console.log(
    `seeded ${MEMBERS} members, ${MEMBERS * Number(values.progress)} progress rows, ${DAYS} days of roll-ups (${VIEWS} page views) in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
}

/** Ten years of roll-ups ending today, written as the product writes them (the marker first, so no backfill runs). */
async function seedRollUps(memberDays: Map<string, Record<string, number>>): Promise<void> {
  const store = await openEmbeddedStore(dataDir, () => undefined);
  try {
    const days = new FigureDaysRepository(store);
    const visits = new FigureDaysRepository(store, 'visit_days');
    await days.claimBackfill();
    const today = new Date().toISOString().slice(0, 10);
    const perDay = Math.max(1, Math.round(VIEWS / DAYS / PAGES.length));
    const writes: Array<Promise<void>> = [];
    for (let index = 0; index < DAYS; index++) {
      const day = addDays(today, -DAYS + 1 + index);
      // The members' own sign-ups and upgrades, and in their two years a cancellation a day
      // (with its upgrade before it, so paid members add up).
      const counts: Record<string, number> = { ...memberDays.get(day) };
      if (index >= DAYS - 730) {
        counts.upgrades = (counts.upgrades ?? 0) + 1;
        counts.cancellations = 1;
      }
      Object.assign(counts, {
        'paying:price_month': 2,
        'paying:price_year': 1,
        'gained:price_month': 3,
        'sales:eur': 4900,
        'salesCount:eur': 1,
        [`lost:price_month:${addDays(today, -DAYS + index - 30)}`]: 1,
      });
      for (const source of SOURCES) counts[`signups@${source}`] = 1 + (index % 3);
      const views: Record<string, number> = {};
      for (const page of PAGES) {
        views[`views:${page}`] = perDay;
        views[`visitors:${page}`] = Math.ceil(perDay / 3);
      }
      // All at once: the store commits the writes of one turn together.
      writes.push(days.add(day, counts), visits.add(day, views));
    }
    await Promise.all(writes);
  } finally {
    await store.close();
  }
}

const product = await startProduct({
  dataDir,
  logFile: path.join(dataDir, 'server.log'),
  env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, JWT_SECRET },
});
try {
  const url = product.url;
  const token = await signIn(url, ADMIN);
  const today = new Date().toISOString().slice(0, 10);
  const period = (days: number, step: string) => `from=${addDays(today, -days + 1)}&to=${today}&step=${step}`;
  const courses = (await (await fetch(`${url}/api/admin/figures/courses`, { headers: auth() })).json()).data;
  const courseId = courses[0].courseId as string;
  function auth() {
    return { authorization: `Bearer ${token}` };
  }
  const cases: Array<[label: string, target: boolean, path: string]> = [
    ['yardstick: /api/health', false, '/api/health'],
    ['yardstick: stats', false, '/api/admin/stats'],
    ['yardstick: page view', false, 'POST /api/visits'],
    ['members, 30 days', true, `/api/admin/figures/members?${period(30, 'day')}`],
    ['members, 10 years', true, `/api/admin/figures/members?${period(3650, 'month')}`],
    ['money, 30 days', true, `/api/admin/figures/money?${period(30, 'day')}`],
    ['money, 10 years', true, `/api/admin/figures/money?${period(3650, 'month')}`],
    ['sources, 1 year', true, `/api/admin/figures/sources?${period(365, 'day')}`],
    ['visits, 30 days', true, `/api/admin/figures/visits?${period(30, 'day')}`],
    ['visits, 1 year', true, `/api/admin/figures/visits?${period(365, 'day')}`],
    ['courses list', true, '/api/admin/figures/courses'],
    ['one course', true, `/api/admin/figures/courses/${courseId}`],
  ];
  let failed = false;
  console.log(
    `\n${'figure'.padEnd(24)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'max ms'.padStart(9)}   runs`,
  );
  for (const [label, targeted, path] of cases) {
    const runs = RUNS;
    const times: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const started = performance.now();
      const response = path.startsWith('POST ')
        ? await fetch(`${url}${path.slice(5)}`, {
            method: 'POST',
            // Each view from a visitor of its own (the API's rate limit is per address).
            headers: {
              'content-type': 'text/plain',
              'user-agent': 'Mozilla/5.0 (bench)',
              'x-forwarded-for': `198.51.${Math.floor(i / 250)}.${i % 250}`,
            },
            body: PAGES[i % PAGES.length],
          })
        : await fetch(`${url}${path}`, { headers: auth() });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${path} answered ${response.status}`);
      if (i >= 3) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    if (targeted && at(0.95) >= TARGET_P95_MS) failed = true;
    console.log(
      `${label.padEnd(24)}${at(0.5).toFixed(1).padStart(9)}${at(0.95).toFixed(1).padStart(9)}${times.at(-1)!.toFixed(1).padStart(9)}   ${runs}`,
    );
  }
  console.log(
    failed
      ? `\nFAIL: a figure's p95 is over ${TARGET_P95_MS} ms`
      : `\nOK: every figure p95 < ${TARGET_P95_MS} ms`,
  );
  // The roll-ups add up: ten years ago no member yet, today every seeded one.
  const members = (
    await (
      await fetch(`${url}/api/admin/figures/members?${period(3650, 'month')}`, { headers: auth() })
    ).json()
  ).data;
  console.log(
    `members ten years ago: ${members.points[0].total}, now: ${members.period.total} (${members.period.paid} paid)`,
  );
  process.exitCode = failed ? 1 : 0;
} finally {
  await product.stop();
  if (!values['data-dir']) await rm(dataDir, { recursive: true, force: true });
}
