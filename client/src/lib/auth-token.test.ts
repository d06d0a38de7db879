import { afterEach, describe, expect, it } from 'vitest';
import { clearToken, getToken, readSession, setToken } from './auth-token';

const fakeToken = (payload: object) =>
  `e30.${btoa(JSON.stringify(payload)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.signature`;

afterEach(() => localStorage.clear());

describe('the stored sign-in token', () => {
  it("lives in localStorage under 'token'", () => {
    setToken('abc');
    expect(localStorage.getItem('token')).toBe('abc');
    expect(getToken()).toBe('abc');
    clearToken();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('tells the role from the payload', () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    expect(readSession(fakeToken({ user: { id: 'u1', role: 'admin' }, exp }))).toEqual({
      userId: 'u1',
      role: 'admin',
    });
    expect(readSession(fakeToken({ user: { id: 'u2', role: 'user' }, exp }))?.role).toBe('user');
  });

  it('treats expired, malformed and role-less tokens as no session', () => {
    const past = Math.floor(Date.now() / 1000) - 1;
    expect(readSession(fakeToken({ user: { id: 'u1', role: 'admin' }, exp: past }))).toBeNull();
    expect(readSession(fakeToken({ user: { id: 'u1', role: 'superuser' } }))).toBeNull();
    expect(readSession('not-a-token')).toBeNull();
    expect(readSession(null)).toBeNull();
  });
});
