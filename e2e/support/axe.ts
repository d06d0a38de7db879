import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string; summary: string }>;
}

/**
 * Runs axe-core (every rule it has, WCAG 2.x A/AA and best practices) on what the page shows
 * now, and fails on any serious or critical violation, listing each rule and the elements it
 * found. The page must allow the injected script: use `test.use({ bypassCSP: true })`.
 */
export async function expectNoSeriousViolations(page: Page, where: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SCRIPT });
  const findings = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: RunOptions) => Promise<AxeResults> };
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.join(' '),
        summary: String(n.failureSummary ?? '').replace(/\s+/g, ' '),
      })),
    }));
  });
  const serious = findings.filter((f: Finding) => f.impact === 'serious' || f.impact === 'critical');
  expect(serious, describe(where, serious)).toEqual([]);
}

function describe(where: string, findings: Finding[]): string {
  const lines = findings.flatMap((f) => [
    `  [${f.impact}] ${f.id}: ${f.help}`,
    ...f.nodes.slice(0, 8).map((n) => `      ${n.target} — ${n.summary}`),
    ...(f.nodes.length > 8 ? [`      …and ${f.nodes.length - 8} more`] : []),
  ]);
  return `Serious or critical accessibility violations on ${where}:\n${lines.join('\n')}`;
}
