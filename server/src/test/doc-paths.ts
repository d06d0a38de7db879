import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Paths the docs and comments name, checked against the tree: every relative Markdown link, and
 * every backticked path of the repository in Markdown and in code comments. A path is written
 * from the repository's root, from where the text lies, or (as the docs do) from `server/src/`,
 * `client/src/` or their `features/`; a bare file name must be some file's name.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Files git knows, and new ones it does not ignore: what a clean clone holds. */
export function repositoryFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file && existsSync(path.join(ROOT, file)));
}

/** What a path is read from, besides the text's own folder. */
const BASES = ['', 'server/src/', 'client/src/', 'server/src/features/', 'client/src/features/'];

/** Files of ours by their kind: a backticked name ending so is a file of the repository. */
const SOURCE_FILE = /\.(?:tsx?|mjs|md|css|sh)$/;
/** Folders a backticked folder path (ending in `/`) may start from. */
const CODE_FOLDERS =
  /^(?:server|client|common|docs|scripts|e2e|bench|\.ci|features|store|http|lib|mail|process|settings|app|components|test)\//;
/** Things that look like paths but are not the repository's: the data folder, builds, packages. */
const NOT_OURS =
  /^(?:dist|data|node_modules|DATA_DIR|MEDIA_DIR|LESSONS_DIR|~|\/)|[<>*…{}$]|\.copies|^@|^\.[^/]*$/;

export interface DeadPath {
  file: string;
  line: number;
  path: string;
}

/** Every relative link and backticked path in `file` that names nothing in `tree`. */
export function deadPaths(file: string, text: string, tree: Set<string>, names: Set<string>): DeadPath[] {
  const markdown = file.endsWith('.md');
  const here = path.posix.dirname(file);
  const found: DeadPath[] = [];
  const lines = text.split('\n');
  let fenced = false;
  lines.forEach((line, index) => {
    if (markdown && /^\s*```/.test(line)) fenced = !fenced;
    if (fenced) return;
    if (!markdown && !/^\s*(?:\/\/|\*|\/\*)/.test(line)) return;
    const candidates: string[] = [];
    // A link is followed from the page it is on, as a reader's browser does.
    if (markdown)
      for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^(?:[a-z]+:|#|\/)/i.test(target)) continue;
        const linked = path.posix.normalize(path.posix.join(here, target.replace(/#.*$/, '')));
        if (!tree.has(linked.replace(/\/$/, ''))) found.push({ file, line: index + 1, path: target });
      }
    for (const [, quoted] of line.matchAll(/`([^`\s]+)`/g)) {
      if (!quoted || NOT_OURS.test(quoted)) continue;
      if (SOURCE_FILE.test(quoted) || (quoted.endsWith('/') && CODE_FOLDERS.test(quoted)))
        candidates.push(quoted);
    }
    // A path from the root, backticked or not (`docs/…` in a sentence).
    for (const [rooted] of line.matchAll(
      /(?<![\w./-])(?:docs|server|client|common|scripts|e2e|bench)\/[\w./-]*\w\.(?:md|tsx?|mjs)\b/g,
    ))
      if (!candidates.includes(rooted)) candidates.push(rooted);
    for (const candidate of candidates)
      if (!exists(candidate, here, tree, names)) found.push({ file, line: index + 1, path: candidate });
  });
  return found;
}

function exists(candidate: string, here: string, tree: Set<string>, names: Set<string>): boolean {
  const clean = candidate.replace(/\/$/, '');
  if (!candidate.includes('/')) return names.has(clean) || tree.has(path.posix.join(here, clean));
  const starts = [here === '.' ? '' : `${here}/`, ...BASES];
  return starts.some((base) => tree.has(path.posix.normalize(base + clean)));
}

/** The tree as a set of files and of every folder above them, and the set of file names. */
export function treeOf(files: string[]): { tree: Set<string>; names: Set<string> } {
  const tree = new Set<string>();
  const names = new Set<string>();
  for (const file of files) {
    names.add(path.posix.basename(file));
    for (let part = file; part !== '.' && !tree.has(part); part = path.posix.dirname(part)) tree.add(part);
  }
  return { tree, names };
}
