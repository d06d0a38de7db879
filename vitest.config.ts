import { configDefaults, defineConfig } from 'vitest/config';
import { aliases } from './aliases.ts';

/**
 * The test tiers, chosen by file name (docs/development.md, "Test tiers", says what each needs and how to run it):
 * - unit: every other server and common test; no root, no nginx, no process of the product's
 *   own, nothing beyond 127.0.0.1.
 * - system (`*.system.test.ts`): real server, supervisor and worker processes, nginx, mounts.
 * - mongodb (`*.mongodb.test.ts`): FerretDB, a real MongoDB-compatible server each file starts
 *   (server/src/test/ferretdb.ts), the MongoDB wire stand-in, and MongoDB itself where
 *   MONGODB_URI is set.
 * - client: the web client's tests, in jsdom.
 * A test that needs both a MongoDB and a system tier's things is a system test.
 */
const SYSTEM = '**/*.system.test.ts';
const MONGODB = '**/*.mongodb.test.ts';
const SERVER = ['server', 'common'];

// argon2 hashing and store files make the server's tests heavier than pure unit tests; tests
// that take longer (starting processes, drills) set their own time limits. The system and mongodb
// tiers wait on processes they start (servers, FerretDB, nginx), which on a busy two-core machine
// running two files at once take several times their usual time: a limit only ends a test that
// hangs, so theirs is generous.
const SERVER_TIMEOUTS = { testTimeout: 20_000, hookTimeout: 20_000 };
const PROCESS_TIMEOUTS = { testTimeout: 60_000, hookTimeout: 60_000 };

/**
 * Files run two at a time (Vitest's own default is one fewer than the cores: one on a two-core
 * machine). Most long files wait on processes they start (servers, FerretDB, nginx, ffmpeg), so
 * two overlap well there; every file has its own ports (free-port.ts), folders (mkdtemp) and
 * FerretDB, so none needs to run alone. `--maxWorkers=1` runs them one by one.
 */
const MAX_WORKERS = 2;

export default defineConfig({
  resolve: { alias: aliases },
  test: {
    maxWorkers: MAX_WORKERS,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: SERVER.map((root) => `${root}/**/*.test.ts`),
          exclude: [...configDefaults.exclude, SYSTEM, MONGODB],
          ...SERVER_TIMEOUTS,
        },
      },
      {
        extends: true,
        test: {
          name: 'system',
          environment: 'node',
          include: SERVER.map((root) => `${root}/${SYSTEM}`),
          ...PROCESS_TIMEOUTS,
        },
      },
      {
        extends: true,
        test: {
          name: 'mongodb',
          environment: 'node',
          include: SERVER.map((root) => `${root}/${MONGODB}`),
          ...PROCESS_TIMEOUTS,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['client/**/*.test.{ts,tsx}'],
          setupFiles: ['client/src/test/dom-timeouts.ts'],
          // Above the waits the setup file allows, so that a slow wait fails as itself.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
