import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The house as the house rules read it (server/src/house-rules.test.ts): the product's files by
 * side and kind, and the small readers of their text (imports, declarations, parameter lists).
 */

export const ROOT = path.resolve(import.meta.dirname, '../../..');

export function listFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder)).flatMap((name) => {
    const file = `${folder}/${name}`;
    return statSync(path.join(ROOT, file)).isDirectory() ? listFiles(file) : [file];
  });
}

export const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
/** Tests and their helpers (server/src/test/, a feature's *-test-support.ts or *-test-fixtures.ts). */
export const isTest = (file: string) =>
  /\.test\.tsx?$|-test-(?:support|fixtures)\.ts$/.test(file) || file.startsWith('server/src/test/');

export const SERVER = listFiles('server/src').filter((file) => file.endsWith('.ts') && !isTest(file));
export const CLIENT = listFiles('client/src').filter((file) => /\.tsx?$/.test(file) && !isTest(file));
export const FEATURES = SERVER.filter((file) => file.startsWith('server/src/features/'));
export const ROUTES = SERVER.filter((file) => file.endsWith('.routes.ts'));
export const SERVICES = SERVER.filter((file) => file.endsWith('.service.ts'));

/** `file:line` for each file where `pattern` matches a line, leaving out the excepted files. */
export function offenders(files: string[], pattern: RegExp, except: Record<string, string> = {}): string[] {
  return files
    .filter((file) => !(file in except))
    .flatMap((file) => {
      const line = read(file)
        .split('\n')
        .findIndex((text) => pattern.test(text));
      return line === -1 ? [] : [`${file}:${line + 1}`];
    });
}

/** Non-test TypeScript of common/, next to SERVER and CLIENT. */
export const COMMON = listFiles('common').filter((file) => file.endsWith('.ts') && !isTest(file));

/** A parameter list cut at its top-level commas (none inside `Pick<A, 'b'>`, `{ a; b }` or `(a, b) => c`). */
export function topLevelParts(list: string): string[] {
  const parts = [''];
  let depth = 0;
  for (const [i, char] of [...list].entries()) {
    if ('<({['.includes(char)) depth++;
    if (')}]'.includes(char) || (char === '>' && list[i - 1] !== '=')) depth--;
    if (char === ',' && depth === 0) parts.push('');
    else parts[parts.length - 1] += char;
  }
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** The files of this checkout a module imports by a relative path (with its .ts). */
export function importsOf(file: string): string[] {
  return [...read(file).matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*'(\.[^']+)'/gms)].map(([, spec]) =>
    `${path.posix.join(path.posix.dirname(file), spec ?? '')}.ts`.replace(/\.ts\.ts$/, '.ts'),
  );
}

export interface Declaration {
  name: string;
  exported: boolean;
  text: string;
}

/** A module's top-level functions and constants, each with its text up to the next one. */
export function topLevelDeclarations(source: string): Declaration[] {
  const start = /^(export\s+)?(?:async\s+)?(?:function\*?\s+|const\s+|let\s+)(\w+)/gm;
  const found = [...source.matchAll(start)];
  return found.map((match, i) => ({
    name: match[2] ?? '',
    exported: Boolean(match[1]),
    text: source.slice(match.index, found[i + 1]?.index ?? source.length),
  }));
}

/** Every package a client module loads before anything is imported lazily (`import()` is not followed). */
export function staticImports(
  entry: string,
  seen = new Set<string>(),
  packages = new Set<string>(),
): Set<string> {
  if (seen.has(entry)) return packages;
  seen.add(entry);
  const source = read(entry);
  for (const [, spec] of source.matchAll(/^(?:import|export)\b[^;'"]*?(?:from\s*)?['"]([^'"]+)['"]/gm)) {
    if (!spec) continue;
    const local = spec.startsWith('.')
      ? path.posix.join(path.posix.dirname(entry), spec)
      : spec.startsWith('@common/')
        ? `common/${spec.slice('@common/'.length)}`
        : null;
    if (local === null) {
      packages.add(spec);
      continue;
    }
    const file = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((end) => local + end).find(isFile);
    if (file && /\.tsx?$/.test(file)) staticImports(file, seen, packages);
  }
  return packages;
}

export function isFile(file: string): boolean {
  try {
    return statSync(path.join(ROOT, file)).isFile();
  } catch {
    return false;
  }
}
