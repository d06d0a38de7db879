import { readdir, readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { MAX_UPLOAD_BYTES } from '@common/constants';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FormFile, fixtures, mp4Head, multipart, streamingUpload } from '../../test/media-fixtures';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: string;
let base: string;

beforeEach(async () => {
  t = await createTestApp();
  admin = (await createUser(t, { role: 'admin' })).token;
  base = path.join(t.dataDir, 'media');
});
afterEach(() => t.close());

function upload(mediaType: string, files: FormFile[], fields: Record<string, string> = {}) {
  const form = multipart({ mediaType, basePath: base, ...fields }, files);
  return t.app.inject({
    method: 'POST',
    url: '/api/media/upload',
    payload: form.payload,
    headers: { ...form.headers, ...bearer(admin) },
  });
}

/**
 * Every file under DATA_DIR apart from the database, the token key, the outbox and the resized
 * copies of pictures (made in the background after an upload; copies/pictures.system.test.ts has them).
 */
async function filesOnDisk(): Promise<string[]> {
  const entries = await readdir(t.dataDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(t.dataDir, path.join(e.parentPath, e.name)))
    .filter((p) => !/^(db|outbox|media\/\.copies)\//.test(p) && p !== 'jwt-secret')
    .sort();
}

describe('uploading', () => {
  it('stores a valid file, answers its name and count, and the library lists it', async () => {
    const response = await upload('image', [{ name: 'Sunset.PNG', content: fixtures.png() }]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      uploadedCount: 1,
      files: [{ name: 'Sunset.png', path: 'image/Sunset.png', size: fixtures.png().length }],
      rejected: [],
    });
    expect(await readFile(path.join(base, 'image', 'Sunset.png'))).toEqual(fixtures.png());
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/media/files/images',
      headers: bearer(admin),
    });
    expect(list.json().files.map((f: { path: string }) => f.path)).toEqual(['image/Sunset.png']);
  });

  it('never overwrites: a second sunset.jpg gets a new name and the first is kept', async () => {
    const first = fixtures.jpeg();
    const second = Buffer.concat([fixtures.jpeg(), Buffer.from('different')]);
    await upload('image', [{ name: 'sunset.jpg', content: first }]);
    const again = await upload('image', [
      { name: 'sunset.jpg', content: second },
      { name: 'sunset.jpg', content: second },
    ]);
    expect(again.json().files.map((f: { name: string }) => f.name)).toEqual(['sunset-1.jpg', 'sunset-2.jpg']);
    expect(await readFile(path.join(base, 'image', 'sunset.jpg'))).toEqual(first);
    expect(await readFile(path.join(base, 'image', 'sunset-1.jpg'))).toEqual(second);
  });

  it('keeps both files when two uploads of one name race', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => upload('video', [{ name: 'clip.mp4', content: fixtures.mp4() }])),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const names = results.map((r) => r.json().files[0].name).sort();
    expect(names).toEqual(['clip-1.mp4', 'clip-2.mp4', 'clip-3.mp4', 'clip.mp4']);
  });

  it('makes safe names of hostile ones and writes nothing outside the chosen folder', async () => {
    const hostile = [
      '../../../evil.png',
      '..\\..\\windows\\evil.png',
      '/etc/cron.d/evil.png',
      '.hidden.png',
      'con<>:|?*name.png',
      `${'x'.repeat(300)}.png`,
      'café déjà.png',
      '.png',
    ];
    const response = await upload(
      'image',
      hostile.map((name) => ({ name, content: fixtures.png() })),
    );
    expect(response.json().rejected).toEqual([]);
    expect(response.json().uploadedCount).toBe(hostile.length);
    const names = response.json().files.map((f: { name: string }) => f.name);
    expect(names).toEqual([
      'evil.png',
      'evil-1.png',
      'evil-2.png',
      'hidden.png',
      'con-name.png',
      `${'x'.repeat(80)}.png`,
      'cafe-deja.png',
      'file.png',
    ]);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]*\.png$/);
    expect(await filesOnDisk()).toEqual(names.map((n: string) => `media/image/${n}`).sort());
  });

  it('accepts ogg in both the video and the audio folder, and SVG as an image', async () => {
    expect((await upload('video', [{ name: 'film.ogg', content: fixtures.ogg('theora') }])).statusCode).toBe(
      200,
    );
    expect((await upload('audio', [{ name: 'tune.ogg', content: fixtures.ogg() }])).statusCode).toBe(200);
    expect((await upload('audio', [{ name: 'song.mp3', content: fixtures.mp3() }])).statusCode).toBe(200);
    expect((await upload('image', [{ name: 'logo.svg', content: fixtures.svg() }])).statusCode).toBe(200);
    expect(await filesOnDisk()).toEqual([
      'media/audio/song.mp3',
      'media/audio/tune.ogg',
      'media/image/logo.svg',
      'media/video/film.ogg',
    ]);
  });
});

describe('refusing', () => {
  it('refuses an extension that is not of the chosen media type, saying why', async () => {
    const response = await upload('image', [{ name: 'setup.exe', content: fixtures.png() }]);
    expect(response.statusCode).toBe(415);
    expect(response.json().rejected).toEqual([
      {
        name: 'setup.exe',
        reason: '.exe is not an accepted image type (allowed: jpg, jpeg, png, gif, webp, bmp, svg)',
      },
    ]);
    expect(response.json().message).toContain('No files were uploaded. Refused: setup.exe');
    const video = await upload('video', [{ name: 'photo.png', content: fixtures.png() }]);
    expect(video.statusCode).toBe(415);
    expect(await filesOnDisk()).toEqual([]);
  });

  it('refuses content that does not match its name: HTML as .jpg, text as .svg, a picture as .mp4', async () => {
    const cases: Array<[string, FormFile, string]> = [
      [
        'image',
        { name: 'page.jpg', content: fixtures.html() },
        'its content is not a recognisable image file',
      ],
      ['image', { name: 'page.svg', content: fixtures.html() }, 'its content is not an SVG image'],
      ['image', { name: 'notes.svg', content: fixtures.text() }, 'its content is not an SVG image'],
      ['video', { name: 'still.mp4', content: fixtures.png() }, 'its content is image/png, not video'],
      ['audio', { name: 'clip.mp3', content: fixtures.mp4() }, 'its content is video/mp4, not audio'],
      [
        'image',
        { name: 'empty.png', content: Buffer.alloc(0) },
        'its content is not a recognisable image file',
      ],
    ];
    for (const [type, file, reason] of cases) {
      const response = await upload(type, [file]);
      expect(response.statusCode, file.name).toBe(415);
      expect(response.json().rejected, file.name).toEqual([{ name: file.name, reason }]);
    }
    expect(await filesOnDisk()).toEqual([]);
  });

  it('stores the valid files of a mixed batch and lists the refused ones', async () => {
    const response = await upload('image', [
      { name: 'good.png', content: fixtures.png() },
      { name: 'bad.txt', content: fixtures.text() },
      { name: 'fake.gif', content: fixtures.text() },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, uploadedCount: 1 });
    expect(response.json().rejected.map((r: { name: string }) => r.name)).toEqual(['bad.txt', 'fake.gif']);
    expect(response.json().message).toMatch(/^Uploaded 1 file\(s\)\. Refused: bad\.txt/);
    expect(await filesOnDisk()).toEqual(['media/image/good.png']);
  });

  it('refuses files sent before the media type, and a media type that does not exist', async () => {
    const early = multipart({}, [{ name: 'a.png', content: fixtures.png() }]);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/media/upload',
      payload: early.payload,
      headers: { ...early.headers, ...bearer(admin) },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('mediaType and basePath must be sent before the files');
    const wrongType = await upload('document', [{ name: 'a.png', content: fixtures.png() }]);
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toBe('Media type must be image, video or audio');
    expect(await filesOnDisk()).toEqual([]);
  });

  it('refuses a base path outside the media roots before writing anything', async () => {
    const response = await upload('image', [{ name: 'a.png', content: fixtures.png() }], {
      basePath: '/tmp',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('must be inside an allowed media folder');
    expect(await filesOnDisk()).toEqual([]);
  });

  it('answers "No files to upload." to a form without files', async () => {
    const response = await upload('image', []);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('No files to upload.');
  });
});

describe('the size limit', () => {
  async function uploadOfSize(size: number) {
    const form = streamingUpload(
      { mediaType: 'video', basePath: base },
      { name: 'big.mp4', head: mp4Head(), size },
    );
    return t.app.inject({
      method: 'POST',
      url: '/api/media/upload',
      payload: form.body,
      headers: { ...form.headers, 'content-length': String(form.length), ...bearer(admin) },
    });
  }

  it(`accepts a file of exactly ${MAX_UPLOAD_BYTES} bytes`, async () => {
    const response = await uploadOfSize(MAX_UPLOAD_BYTES);
    expect(response.statusCode).toBe(200);
    expect(response.json().files).toEqual([
      { name: 'big.mp4', path: 'video/big.mp4', size: MAX_UPLOAD_BYTES },
    ]);
  }, 60_000);

  it('refuses a file one byte larger and leaves nothing on disk', async () => {
    const response = await uploadOfSize(MAX_UPLOAD_BYTES + 1);
    expect(response.statusCode).toBe(413);
    expect(response.json().rejected).toEqual([{ name: 'big.mp4', reason: 'it is larger than 200MB' }]);
    expect(await filesOnDisk()).toEqual([]);
  }, 60_000);
});

describe('an aborted upload', () => {
  it('leaves no partial file behind', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const form = multipart({ mediaType: 'video', basePath: base }, [
      { name: 'cut.mp4', content: fixtures.mp4(4 * 1024 * 1024) },
    ]);
    const head = [
      'POST /api/media/upload HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      `Authorization: Bearer ${admin}`,
      `Content-Type: ${form.headers['content-type']}`,
      `Content-Length: ${form.payload.length}`,
      '',
      '',
    ].join('\r\n');
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(head);
    socket.write(form.payload.subarray(0, 2 * 1024 * 1024));
    // Wait until the server has started writing the temporary file, then hang up mid-file.
    const folder = path.join(base, 'video');
    for (let i = 0; i < 100 && (await readdir(folder).catch(() => [])).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await readdir(folder))[0]).toMatch(/^\.upload-.*\.part$/);
    socket.destroy();
    for (let i = 0; i < 100 && (await readdir(folder)).length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await readdir(folder)).toEqual([]);
  });
});
