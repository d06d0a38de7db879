import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The house rule that tsc alone cannot ask for: every route of a `*.routes.ts` file names its
 * answer's type (`app.get<{ Reply: T }>(…)`, T from common/schemas/<feature>.ts), so that tsc
 * checks the handler's answer against the type the client's `api<T>()` reads.
 */
const ROUTE_CALL = /\.(get|post|put|delete|patch|all|head|options)\s*(<\{[\s\S]*?\}>)?\s*\(\s*['"`]/g;

async function routesFiles(): Promise<string[]> {
  const root = import.meta.dirname;
  const entries = await readdir(root, { recursive: true });
  return entries
    .filter((entry) => entry.endsWith('.routes.ts'))
    .map((entry) => path.join(root, entry))
    .sort();
}

describe('every route names the type of its answer', () => {
  it('finds the routes files', async () => {
    expect((await routesFiles()).length).toBeGreaterThan(5);
  });

  it('gives each route a Reply type', async () => {
    const untyped: string[] = [];
    for (const file of await routesFiles()) {
      const source = await readFile(file, 'utf8');
      for (const match of source.matchAll(ROUTE_CALL)) {
        if (match[2]?.includes('Reply:')) continue;
        const line = source.slice(0, match.index).split('\n').length;
        untyped.push(`${path.relative(process.cwd(), file)}:${line}`);
      }
    }
    expect(untyped).toEqual([]);
  });
});
