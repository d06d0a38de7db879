import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, SESSION_ENDED_EVENT } from './api-client';

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
