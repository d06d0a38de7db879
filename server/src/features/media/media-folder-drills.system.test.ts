import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtures, multipart } from '../../test/media-fixtures';
import { bearer, createTestApp, createUser } from '../../test/test-app';
import { canMount, mountTmpfs } from '../../test/tmpfs';

// A media folder on a read-only disk (a real read-only tmpfs): said at start, in the Media
// Manager, and to an upload, in plain words.
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

describe.skipIf(!canMount('The read-only media folder drill'))(
  'a media folder that cannot be written',
  () => {
    it('is reported at start, shown with the library, and an upload answers why instead of a 500', async () => {
      const lines: string[] = [];
      // The folder is mounted read-only before the app starts, as after a reboot with a bad mount.
      const dataDir = await mkdtemp(path.join(tmpdir(), 'media-ro-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const media = path.join(dataDir, 'media');
      cleanups.push(await mountTmpfs(media, '1m', true));
      const t = await createTestApp(
        { DATA_DIR: dataDir },
        { logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } } },
      );
      cleanups.push(() => t.close());
      const admin = (await createUser(t, { role: 'admin' })).token;

      await expect
        .poll(() => lines.join('\n'))
        .toMatch(/Cannot use the media folder .*read-only file system/);
      expect(lines.join('\n')).not.toMatch(/"stack"/);

      const library = await t.app.inject({
        method: 'GET',
        url: '/api/media/last-scan',
        headers: bearer(admin),
      });
      expect(library.statusCode).toBe(200);
      expect(library.json().folderProblem).toMatch(
        new RegExp(
          `^Cannot use the media folder ${media}/image: it is on a read-only file system\\. To fix: `,
        ),
      );

      const form = multipart({ mediaType: 'image', basePath: media }, [
        { name: 'a.png', content: fixtures.png() },
      ]);
      const upload = await t.app.inject({
        method: 'POST',
        url: '/api/media/upload',
        payload: form.payload,
        headers: { ...form.headers, ...bearer(admin) },
      });
      expect(upload.statusCode, upload.body + lines.join('\n')).toBe(503);
      expect(upload.json().message).toMatch(
        /^Nothing was uploaded\. Cannot use the media folder .*read-only file system/,
      );
    });
  },
);
