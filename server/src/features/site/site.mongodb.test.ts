import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../settings/config';
import { bothStores } from '../../test/both-stores';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';

/** Issue 37, item 6: the site's settings and pages on either store, seen by a second process within a second. */
const { stores, closeStandIns } = bothStores('site');
afterAll(closeStandIns);

const SETTINGS = {
  name: 'Harbour on either store',
  tagline: 'One line.',
  accentColor: '#166534',
  contactEmail: '',
  socialLinks: [],
  logo: null,
  icon: null,
};

describe.each(stores)('the site’s settings and pages, on the %s', (_store, open) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('are saved, read back, and reach another server process on the same store within a second', async () => {
    t = await createTestApp({}, { openStore: open });
    const { token } = await createUser(t, { role: 'admin' });
    const other = await buildApp({
      config: loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: 'silent' }),
      store: t.store,
    });
    await other.ready();
    try {
      expect((await other.inject({ url: '/api/site' })).json().data.name).toBe('My Site');
      const saved = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/site',
        headers: bearer(token),
        payload: SETTINGS,
      });
      expect(saved.statusCode).toBe(200);
      const page = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/site/pages/contact',
        headers: bearer(token),
        payload: { title: 'Write to us', description: 'How to reach us.', markdown: 'Ring the **bell**.' },
      });
      expect(page.statusCode).toBe(200);
      const started = Date.now();
      let seen = { name: '', title: '' };
      while (Date.now() - started < 1000) {
        seen = {
          name: (await other.inject({ url: '/api/site' })).json().data.name,
          title: (await other.inject({ url: '/api/site/pages/contact' })).json().data.title,
        };
        if (seen.name === SETTINGS.name && seen.title === 'Write to us') break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(seen).toEqual({ name: SETTINGS.name, title: 'Write to us' });
      expect((await other.inject({ url: '/api/site/pages/contact' })).json().data.html).toBe(
        '<p>Ring the <strong>bell</strong>.</p>',
      );
    } finally {
      await other.close();
    }
  });
});
