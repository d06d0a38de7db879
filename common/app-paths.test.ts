import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_PATHS, isAppPath } from './app-paths';

describe('the client’s page addresses', () => {
  it('are exactly the routes of client/src/app/router.tsx, so no page is answered 404', () => {
    const router = readFileSync(path.resolve(import.meta.dirname, '../client/src/app/router.tsx'), 'utf8');
    const routes = [...router.matchAll(/<Route path="([^"]+)"/g)]
      .map((match) => match[1])
      .filter((p) => p !== '*');
    expect([...APP_PATHS].sort()).toEqual(routes.sort());
  });

  it('match one segment per parameter', () => {
    expect(isAppPath('/reset-password/abc')).toBe(true);
    expect(isAppPath('/reset-password/')).toBe(false);
    expect(isAppPath('/reset-password/a/b')).toBe(false);
    expect(isAppPath('/admin/database/members')).toBe(true);
    expect(isAppPath('/no/such/page')).toBe(false);
  });
});
