import { TOKEN_STORAGE_KEY } from '@common/constants';
import type { Role } from '@common/schemas/user';

/** Whether this tab ended its session itself and no token has been seen since (a new session). */
let endedHere = false;

/** The sign-in token lives in localStorage under 'token' (shared by the site's tabs). */
export function getToken(): string | null {
  try {
    const token = localStorage.getItem(TOKEN_STORAGE_KEY);
    if (token) endedHere = false;
    return token;
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_STORAGE_KEY, token);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_STORAGE_KEY);
}

/** Ends the session in this tab on purpose: Logout, Sign out everywhere, a deleted account. */
export function forgetToken(): void {
  clearToken();
  endedHere = true;
}

/**
 * Whether the missing token is this tab's own doing. A signed-in page still on screen for a
 * moment after Logout may ask again without a token and be refused: that is the sign-out already
 * done, not a session that ended in another tab, and must not send the visitor to sign in.
 */
export function sessionEndedHere(): boolean {
  return endedHere && getToken() === null;
}

/** Where the console hands its session over to itself on another address (the server's new port). */
const HAND_OVER = '#handover=';

export function handOverUrl(origin: string, token: string): string {
  return `${origin}/admin/dashboard${HAND_OVER}${encodeURIComponent(token)}`;
}

/**
 * Takes a session handed over by the console after the server moved to a new port (a new
 * origin has its own storage). Only on the console's address, only an administrator's token,
 * and the fragment is removed from the address at once. The server still checks the token.
 */
export function adoptHandedOverToken(location: Location = window.location): void {
  if (!location.hash.startsWith(HAND_OVER)) return;
  const token = decodeURIComponent(location.hash.slice(HAND_OVER.length));
  window.history.replaceState(null, '', `${location.pathname}${location.search}`);
  if (location.pathname === '/admin/dashboard' && readSession(token)?.role === 'admin') setToken(token);
}

export interface SessionInfo {
  userId: string;
  role: Role;
}

/**
 * Reads the token's payload without verifying it: only the server can verify. The client uses
 * it to choose a redirect and to hide screens, never as a permission.
 */
export function readSession(token = getToken()): SessionInfo | null {
  if (!token) return null;
  try {
    const payload = JSON.parse(base64UrlDecode(token.split('.')[1] ?? ''));
    if (typeof payload.exp === 'number' && payload.exp * 1000 <= Date.now()) return null;
    const user = payload.user;
    if (typeof user?.id !== 'string' || (user.role !== 'user' && user.role !== 'admin')) return null;
    return { userId: user.id, role: user.role };
  } catch {
    return null;
  }
}

function base64UrlDecode(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
