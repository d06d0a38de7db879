import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, SESSION_ENDED_EVENT } from './api-client';
import { takeNotice } from './next-page-notice';
import { forgetProof, rememberProof, setPasswordPrompt } from './reauth-proof';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

function answer(status: number, body: string, contentType = 'application/json') {
  const fetchMock = vi.fn(
    async () => new Response(body, { status, headers: { 'content-type': contentType } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('api()', () => {
  it('sends JSON and the bearer token when asked', async () => {
    localStorage.setItem('token', 'tok');
    const fetchMock = answer(200, '{"ok":true}');
    expect(await api('/api/x', { method: 'POST', body: { a: 1 }, auth: true })).toEqual({ ok: true });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers).toMatchObject({ Authorization: 'Bearer tok', 'Content-Type': 'application/json' });
    expect(init.body).toBe('{"a":1}');
  });

  it('treats a text answer as a success wrapper', async () => {
    answer(200, 'Saved', 'text/plain');
    expect(await api('/api/x')).toEqual({ success: true, message: 'Saved' });
  });

  it("reads the error's message, else the raw text, else 'HTTP {status}'", async () => {
    answer(409, '{"message":"Taken"}');
    await expect(api('/api/x')).rejects.toMatchObject({ message: 'Taken', status: 409, fromServer: true });
    answer(502, 'Bad gateway', 'text/plain');
    await expect(api('/api/x')).rejects.toMatchObject({ message: 'Bad gateway' });
    answer(500, '');
    await expect(api('/api/x')).rejects.toMatchObject({ message: 'HTTP 500', fromServer: false });
  });

  it('forgets a token the server rejects and says the session ended, so the screens go to sign in', async () => {
    localStorage.setItem('token', 'stale');
    const ended = vi.fn();
    window.addEventListener(SESSION_ENDED_EVENT, ended);
    try {
      answer(401, '{"message":"Your session has expired. Please sign in again."}');
      await expect(api('/api/x', { auth: true })).rejects.toBeInstanceOf(ApiError);
      expect(localStorage.getItem('token')).toBeNull();
      expect(ended).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener(SESSION_ENDED_EVENT, ended);
    }
  });
});

describe('api() and the password confirmation', () => {
  afterEach(() => {
    setPasswordPrompt(null);
    forgetProof();
  });

  it('asks for the password on REAUTH_REQUIRED and sends the call again with the proof', async () => {
    localStorage.setItem('token', 'tok');
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        new Response('{"code":"REAUTH_REQUIRED","message":"Please confirm your password"}', { status: 403 }),
      )
      .mockResolvedValueOnce(new Response('{"success":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const ask = vi.fn(async () => {
      rememberProof('proof-1', new Date(Date.now() + 60_000).toISOString());
      return true;
    });
    setPasswordPrompt(ask);

    expect(await api('/api/admin/nodejs/restart', { method: 'POST', auth: true })).toEqual({ success: true });
    expect(ask).toHaveBeenCalledTimes(1);
    const [, replay] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect(replay.headers).toMatchObject({ Authorization: 'Bearer tok', 'X-Reauth': 'proof-1' });
  });

  it('changes nothing and says so when the dialog is cancelled', async () => {
    localStorage.setItem('token', 'tok');
    answer(403, '{"code":"REAUTH_REQUIRED","message":"Please confirm your password"}');
    setPasswordPrompt(async () => false);
    await expect(api('/api/x', { method: 'POST', auth: true })).rejects.toMatchObject({
      code: 'REAUTH_CANCELLED',
      message: 'Not changed: your password was not confirmed.',
    });
    expect(localStorage.getItem('token')).toBe('tok');
  });

  it('signs a suspended account out with a message for the sign-in page', async () => {
    localStorage.setItem('token', 'tok');
    answer(403, '{"code":"ACCOUNT_SUSPENDED","message":"This account is suspended."}');
    await expect(api('/api/admin/users', { auth: true })).rejects.toBeInstanceOf(ApiError);
    expect(localStorage.getItem('token')).toBeNull();
    expect(takeNotice()).toBe('You have been signed out: your account has been suspended.');
  });

  it("signs a demoted administrator out by the refusal's code, whatever its words", async () => {
    localStorage.setItem('token', 'tok');
    const ended = vi.fn();
    window.addEventListener(SESSION_ENDED_EVENT, ended);
    try {
      answer(403, '{"success":false,"code":"NOT_ADMIN","message":"Not for you.","msg":"Not for you."}');
      await expect(api('/api/admin/users', { auth: true })).rejects.toMatchObject({
        status: 403,
        code: 'NOT_ADMIN',
        message: 'Not for you.',
      });
      expect(ended).toHaveBeenCalledTimes(1);
      expect(localStorage.getItem('token')).toBeNull();
      expect(takeNotice()).toBe('You have been signed out: your account is no longer an administrator.');
    } finally {
      window.removeEventListener(SESSION_ENDED_EVENT, ended);
    }
  });

  it('keeps the session on any other 403, even one that speaks of administrators', async () => {
    localStorage.setItem('token', 'tok');
    answer(403, '{"success":false,"code":"FORBIDDEN","message":"Administrator access is required."}');
    await expect(api('/api/admin/users/1', { method: 'DELETE', auth: true })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(localStorage.getItem('token')).toBe('tok');
    expect(takeNotice()).toBeNull();
  });
});

describe('ApiError codes', () => {
  it('names an answer without a known code UNREADABLE', async () => {
    answer(502, '<html>Bad gateway</html>', 'text/html');
    await expect(api('/api/x')).rejects.toMatchObject({ status: 502, code: 'UNREADABLE' });
    answer(400, '{"code":"SOMETHING_NEW","message":"No"}');
    await expect(api('/api/x')).rejects.toMatchObject({ code: 'UNREADABLE', message: 'No' });
  });

  it("names a call that got no answer NETWORK, keeping the browser's words", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(api('/api/x')).rejects.toMatchObject({
      name: 'ApiError',
      code: 'NETWORK',
      status: 0,
      message: 'Failed to fetch',
      fromServer: false,
    });
  });
});
