import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { StoredDoc } from '../../store/store';
import { bothStores } from '../../test/both-stores';
import { fixtures } from '../../test/media-fixtures';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';

interface SettingsDoc extends StoredDoc {
  key: string;
  value: Record<string, unknown>;
}

const { stores, closeStandIns } = bothStores('media-folder');
afterAll(closeStandIns);

describe.each(stores)("the media library's folder, on the %s", (_store, open) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const settingsOf = async (key: string) =>
    (await t!.store.collection<SettingsDoc>('settings').findOne({ key }))?.value;

  it('moves a folder saved inside the slideshow settings to its own home, and keeps serving it', async () => {
    // A site saved before the move: the folder among the slideshow's settings.
    t = await createTestApp(
      {},
      {
        openStore: async (dataDir) => {
          const library = path.join(dataDir, 'old-library');
          await mkdir(path.join(library, 'image'), { recursive: true });
          await writeFile(path.join(library, 'image', 'kept.png'), fixtures.png());
          const store = await open(dataDir);
          await store
            .collection<SettingsDoc>('settings')
            .insertOne({ key: 'slider', value: { backgroundsBasePath: library, cycleTime: 9000 } });
          return store;
        },
      },
    );
    const library = path.join(t.dataDir, 'old-library');
    const { token } = await createUser(t, { role: 'admin' });

    const config = await t.app.inject({ url: '/api/slider/config', headers: bearer(token) });
    expect(config.json().data).toMatchObject({ backgroundsBasePath: library, cycleTime: 9000 });
    expect(await settingsOf('media')).toEqual({ folder: library });
    expect(await settingsOf('slider')).toEqual({ cycleTime: 9000 });
    expect((await t.app.inject({ url: '/media/image/kept.png' })).statusCode).toBe(200);
  });

  it("saves the Background Manager's base path as the library's folder, apart from the slideshow's settings", async () => {
    t = await createTestApp({}, { openStore: open });
    const { token } = await createUser(t, { role: 'admin' });
    const library = path.join(t.dataDir, 'chosen');
    await mkdir(path.join(library, 'image'), { recursive: true });
    await writeFile(path.join(library, 'image', 'new.png'), fixtures.png());
    const current = (await t.app.inject({ url: '/api/slider/config', headers: bearer(token) })).json().data;

    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/slider/config',
      headers: bearer(token),
      payload: { ...current, backgroundsBasePath: library, cycleTime: 12000 },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ backgroundsBasePath: library, cycleTime: 12000 });
    expect(await settingsOf('media')).toEqual({ folder: library });
    expect(await settingsOf('slider')).not.toHaveProperty('backgroundsBasePath');
    expect((await t.app.inject({ url: '/media/image/new.png' })).statusCode).toBe(200);
  });
});
