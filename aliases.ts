import path from 'node:path';

/**
 * Import aliases for Vite and Vitest; tsconfig.json's `paths` says the same for tsc, tsx and
 * Playwright. `@common/x` is the repository's `common/x`, shared by client and server.
 */
export const aliases = { '@common': path.resolve(import.meta.dirname, 'common') };
