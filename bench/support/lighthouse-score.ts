import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu --disable-background-networking';

export interface PerformanceRun {
  performance: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's CPU benchmark of the machine during the run (a busy machine scores lower). */
  benchmarkIndex: number;
}

/**
 * Lighthouse's performance category for `url`, as bench/lighthouse.bench.ts runs it (mobile
 * preset, default throttling, Debian's Chromium), `runs` times; the run with the median score
 * is answered, with every run's score. Reports are kept in `.tmp/lighthouse/<name>-<n>.json`.
 */
export async function lighthousePerformance(
  url: string,
  runs: number,
  name: string,
): Promise<{ median: PerformanceRun; scores: number[] }> {
  const folder = path.join(ROOT, '.tmp', 'lighthouse');
  await mkdir(folder, { recursive: true });
  const results: PerformanceRun[] = [];
  for (let i = 1; i <= runs; i++) {
    const output = path.join(folder, `${name}-${i}.json`);
    const run = () =>
      promisify(execFile)(
        path.join(ROOT, 'node_modules/.bin/lighthouse'),
        [
          url,
          `--chrome-flags=${CHROME_FLAGS}`,
          '--only-categories=performance',
          '--output=json',
          `--output-path=${output}`,
          '--quiet',
        ],
        { env: { ...process.env, CHROME_PATH: CHROME }, maxBuffer: 64 * 1024 * 1024 },
      );
    // On a busy machine Lighthouse now and then loses its trace (NO_NAVSTART): once more then.
    await run().catch(run);

    const report = JSON.parse(await readFile(output, 'utf8')) as {
      environment: { benchmarkIndex: number };
      categories: { performance: { score: number } };
      audits: Record<string, { numericValue?: number }>;
    };
    const value = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
    results.push({
      performance: Math.round(report.categories.performance.score * 100),
      fcpMs: value('first-contentful-paint'),
      lcpMs: value('largest-contentful-paint'),
      tbtMs: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
      benchmarkIndex: report.environment.benchmarkIndex,
    });
  }
  const sorted = [...results].sort((a, b) => a.performance - b.performance);
  return { median: sorted[Math.floor(sorted.length / 2)]!, scores: results.map((r) => r.performance) };
}
