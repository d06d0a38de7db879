import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../settings/config';
import { openEmbeddedStore } from '../../store/sqlite/store';
import { loadTokenKey, TokenService } from './token-service';

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('token signing key', () => {
  it('is generated once and kept in DATA_DIR, so tokens survive a restart', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'key-'));
    const first = new TokenService(await loadTokenKey(dir));
    const token = await first.sign({ id: 'u1', role: 'admin' }, 's1');
    const afterRestart = new TokenService(await loadTokenKey(dir));
    expect(await afterRestart.verify(token)).toEqual({ id: 'u1', role: 'admin', sid: 's1' });
    expect((await stat(path.join(dir, 'jwt-secret'))).mode & 0o077).toBe(0);
  });

  it('uses JWT_SECRET when configured, and tokens signed with another key fail', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'key-'));
    const configured = new TokenService(await loadTokenKey(dir, 'x'.repeat(40)));
    const generated = new TokenService(await loadTokenKey(dir));
    const token = await generated.sign({ id: 'u1', role: 'user' }, 's1');
    expect(await configured.verify(token)).toBeNull();
  });

  it('refuses expired tokens and other algorithms', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'key-'));
    const key = await loadTokenKey(dir);
    const service = new TokenService(key);
    const expired = await new SignJWT({ user: { id: 'u1', role: 'user' } })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti('s1')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(key);
    const hs512 = await new SignJWT({ user: { id: 'u1', role: 'user' } })
      .setProtectedHeader({ alg: 'HS512' })
      .setJti('s1')
      .setExpirationTime('1h')
      .sign(key);
    expect(await service.verify(expired)).toBeNull();
    expect(await service.verify(hs512)).toBeNull();
  });

  // Finding 16.7: a token made with the real key but without an expiry, or with one further away
  // than the product ever issues, would otherwise be a key to the account forever.
  it('refuses tokens without an expiry or with one further away than sign-in issues', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'key-'));
    const key = await loadTokenKey(dir);
    const service = new TokenService(key);
    const claims = { user: { id: 'u1', role: 'user' } };
    const forever = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setJti('s1').sign(key);
    const century = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setJti('s1')
      .setExpirationTime('100y')
      .sign(key);
    const eightDays = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setJti('s1')
      .setExpirationTime('8d')
      .sign(key);
    const asIssued = await service.sign({ id: 'u1', role: 'user' }, 's1');
    expect(await service.verify(forever)).toBeNull();
    expect(await service.verify(century)).toBeNull();
    expect(await service.verify(eightDays)).toBeNull();
    expect(await service.verify(asIssued)).toEqual({ id: 'u1', role: 'user', sid: 's1' });
  });
});

describe('the jwt-secret file (16.10)', () => {
  it.each([
    ['empty', ''],
    ['three bytes', 'abc\n'],
  ])('stops the start with a message naming it when it is %s', async (_label, content) => {
    dir = await mkdtemp(path.join(tmpdir(), 'key-'));
    const file = path.join(dir, 'jwt-secret');
    await writeFile(file, content, { mode: 0o600 });
    const store = await openEmbeddedStore(dir);
    try {
      const starting = buildApp({ config: loadConfig({ DATA_DIR: dir }), store });
      await expect(starting).rejects.toThrow(`${file} holds`);
      await expect(starting).rejects.toThrow(/a session secret needs at least 32/);
    } finally {
      await store.close();
    }
  });
});
