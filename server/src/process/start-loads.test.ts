import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Packages a server process loads only when a request first needs them (docs/performance.md,
 * "Start-up and memory"): each costs every process megabytes it would hold from start to stop.
 * sharp belongs to the media copies' own process (features/media/copies/child.ts) alone.
 */
const LOADED_AT_FIRST_NEED = [
  'stripe',
  'marked',
  'sanitize-html',
  'mongodb',
  'nodemailer',
  'sharp',
  'file-type',
  '@node-rs/argon2',
  'jose',
];

/** The packages the built server (as scripts/build-server.mjs bundles it) imports statically: loaded at start. */
async function packagesLoadedAtStart(): Promise<string[]> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['server/src/main.ts'],
    outdir: path.join(ROOT, '.tmp/start-loads'),
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    alias: { '@common': path.join(ROOT, 'common') },
    metafile: true,
    logLevel: 'silent',
  });
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports);
  return [
    ...new Set(
      imports
        .filter((i) => i.external && i.kind === 'import-statement' && !i.path.startsWith('node:'))
        .map((i) => i.path),
    ),
  ].sort();
}

describe('a server process at start', () => {
  it('loads none of the packages only some requests need (Stripe, Markdown, MongoDB, mail, pictures, hashing, tokens)', async () => {
    const atStart = await packagesLoadedAtStart();
    expect(atStart).toContain('fastify');
    expect(atStart.filter((name) => LOADED_AT_FIRST_NEED.includes(name))).toEqual([]);
  });
});
