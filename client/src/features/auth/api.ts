import { ARRIVAL_KEY } from '@common/constants';
import type { AccountDoneResponse } from '@common/schemas/account';
import type { AuthResponse, MessageResponse } from '@common/schemas/auth';
import { api } from '../../lib/api-client';
import { readSession, setToken } from '../../lib/auth-token';

/**
 * Where this visit came from, as the page-view beacon kept it on landing (public/beacon.js); none
 * for a visit that came straight here, so the registration stays the spec's name, e-mail, password.
 */
function arrival(): object | undefined {
  try {
    const kept: unknown = JSON.parse(sessionStorage.getItem(ARRIVAL_KEY) ?? 'null');
    return kept && typeof kept === 'object' && Object.keys(kept).length > 0 ? kept : undefined;
  } catch {
    return undefined;
  }
}

export async function register(body: { name: string; email: string; password: string }) {
  const from = arrival();
  const result = await api<AuthResponse>('/api/auth/register', {
    method: 'POST',
    body: from ? { ...body, arrival: from } : body,
  });
  setToken(result.token);
  return result;
}

/** Signs in and answers where to go next: admins to the console, everyone else to the dashboard. */
export async function login(body: { email: string; password: string }): Promise<string> {
  const result = await api<AuthResponse>('/api/auth/login', { method: 'POST', body });
  setToken(result.token);
  return readSession(result.token)?.role === 'admin' ? '/admin/dashboard' : '/dashboard';
}

export function forgotPassword(email: string) {
  return api<MessageResponse>('/api/auth/forgot-password', { method: 'POST', body: { email } });
}

export function resetPassword(token: string, password: string) {
  return api<MessageResponse>(`/api/auth/reset-password/${encodeURIComponent(token)}`, {
    method: 'PUT',
    body: { password },
  });
}

/**
 * Opened from the link mailed to a new address (the account's confirm-email page); works whether
 * or not this browser is signed in. Here with the other public pages' calls: no react-query.
 */
export function confirmEmail(token: string) {
  return api<AccountDoneResponse>('/api/account/confirm-email', { method: 'POST', body: { token } });
}
