// `npm run bench`: runs every benchmark in this folder, one after another, and stops on the
// first that fails its target. Each one can also be run on its own (see bench/README.md).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const benches = readdirSync(here)
  .filter((file) => /\.bench\.(ts|mjs)$/.test(file) || file === 'bundle-size.mjs')
  .sort();

for (const file of benches) {
  console.log(`\n== ${file}`);
  const runner = file.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const result = spawnSync(process.execPath, [...runner, path.join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
