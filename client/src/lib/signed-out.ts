import { clearToken } from './auth-token';
import { leaveNotice } from './next-page-notice';
import { forgetProof } from './reauth-proof';

/**
 * Ends the session in this browser and goes to the sign-in page, which says why. Used when the
 * server no longer accepts the account (deleted, suspended, no longer an administrator).
 */
export function signOutWithMessage(message: string): void {
  clearToken();
  forgetProof();
  leaveNotice(message);
  window.location.assign('/login');
}
