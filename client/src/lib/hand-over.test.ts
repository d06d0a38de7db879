import { afterEach, describe, expect, it } from 'vitest';
import { adoptHandedOverToken, getToken, handOverUrl } from './auth-token';

const fakeToken = (role: string) =>
  `e30.${btoa(JSON.stringify({ user: { id: 'u1', role }, exp: Math.floor(Date.now() / 1000) + 60 }))
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_')}.signature`;

function visit(url: string) {
  window.history.replaceState(null, '', url);
  adoptHandedOverToken();
}

afterEach(() => localStorage.clear());

describe('handing the console over to the server on its new port', () => {
  it("takes an administrator's token on the console's address and removes it from the address", () => {
    const token = fakeToken('admin');
    const url = new URL(handOverUrl('http://127.0.0.1:6001', token));
    expect(url.pathname).toBe('/admin/dashboard');
    visit(`${url.pathname}${url.hash}`);
    expect(getToken()).toBe(token);
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/admin/dashboard');
  });

  it("ignores a member's token, and any token on another page", () => {
    visit(`/admin/dashboard#handover=${fakeToken('user')}`);
    expect(getToken()).toBeNull();
    visit(`/login#handover=${fakeToken('admin')}`);
    expect(getToken()).toBeNull();
    expect(window.location.hash).toBe('');
  });
});
