import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, SESSION_ENDED_EVENT } from './api-client';
import { useForgetSession } from './use-logout';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function SignOutButton() {
  const forget = useForgetSession();
  return (
    <button type="button" onClick={forget}>
      Sign out
    </button>
  );
}

function renderSignedIn() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/account']}>
        <Routes>
          <Route path="/" element={<h1>Home</h1>} />
          <Route path="/account" element={<SignOutButton />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The server as it answers a call without a valid token. */
function refuseEveryCall() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{"message":"Sign in first."}', { status: 401 })),
  );
}

describe('ending the session in this tab', () => {
  // Announcements that a session ended elsewhere (they lead to the sign-in page).
  const ended = vi.fn();
  beforeEach(() => {
    localStorage.setItem('token', 'member-token');
    refuseEveryCall();
    ended.mockClear();
    window.addEventListener(SESSION_ENDED_EVENT, ended);
  });
  afterEach(() => window.removeEventListener(SESSION_ENDED_EVENT, ended));

  /** Signs out on the signed-in page, as Logout does, and waits for the home page. */
  async function signOutHere() {
    renderSignedIn();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    return screen.findByRole('heading', { name: 'Home' });
  }

  it('is not taken for a session ended elsewhere when a page still on screen is refused without a token', async () => {
    expect(await signOutHere()).toBeTruthy();
    expect(localStorage.getItem('token')).toBeNull();
    // The account page's data, asked again in the moment before it leaves the screen.
    await expect(api('/api/account', { auth: true })).rejects.toBeInstanceOf(ApiError);
    expect(ended).not.toHaveBeenCalled();
  });

  it('still sends this tab to sign in when another tab signed out', async () => {
    await signOutHere();
    // Signed in again, then out in another tab: the storage is shared, this tab did nothing.
    localStorage.setItem('token', 'new-token');
    await expect(api('/api/account', { auth: true })).rejects.toBeInstanceOf(ApiError);
    expect(ended).toHaveBeenCalledTimes(1);
    localStorage.removeItem('token');
    await expect(api('/api/account', { auth: true })).rejects.toBeInstanceOf(ApiError);
    expect(ended).toHaveBeenCalledTimes(2);
  });
});
