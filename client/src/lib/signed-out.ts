import { clearToken } from './auth-token';
import { forgetProof } from './reauth-proof';

const KEY = 'signed-out-message';

/**
 * Ends the session in this browser and goes to the sign-in page, which says why. Used when the
 * server no longer accepts the account (deleted, suspended, no longer an administrator).
 */
export function signOutWithMessage(message: string): void {
  clearToken();
  forgetProof();
  try {
    sessionStorage.setItem(KEY, message);
  } catch {
    // Storage refused (private mode): the sign-in page then shows no reason, which is still safe.
  }
  window.location.assign('/login');
}

/** The reason of the last sign-out, shown once. */
export function takeSignedOutMessage(): string | null {
  try {
    const message = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return message;
  } catch {
    return null;
  }
}
