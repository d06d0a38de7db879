import { type ErrorCode, isErrorCode } from '@common/errors';
import { clearToken, getToken, sessionEndedHere } from './auth-token';
import { askForPassword, currentProof } from './reauth-proof';
import { signOutWithMessage } from './signed-out';

/**
 * Codes the client gives failures the server did not name with a code of `common/errors.ts`.
 * - `REAUTH_CANCELLED`: the password dialog was cancelled, so the change was not sent again.
 * - `NETWORK`: no answer at all (the connection was lost, the server is down).
 * - `UNREADABLE`: an answer without a known code (a proxy's error page, an empty body).
 */
/** Codes the client gives failures of its own: a cancelled password prompt or upload, no answer, an answer without a code. */
export type ClientErrorCode = 'REAUTH_CANCELLED' | 'ABORTED' | 'NETWORK' | 'UNREADABLE';

export type ApiErrorCode = ErrorCode | ClientErrorCode;

/** Refusals that mean the account can no longer use what it was using: sign out and say why. */
const SIGNED_OUT_BECAUSE: Partial<Record<ApiErrorCode, string>> = {
  UNAUTHENTICATED: 'You have been signed out: your account no longer exists or your session ended.',
  ACCOUNT_SUSPENDED: 'You have been signed out: your account has been suspended.',
  NOT_ADMIN: 'You have been signed out: your account is no longer an administrator.',
};

/**
 * Announced when the server refuses the stored token (the session was ended: signed out
 * elsewhere, a password change, an administrator). The signed-in screens then go to sign in.
 */
export const SESSION_ENDED_EVENT = 'members:session-ended';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** What the refusal is: act on this, never on the message's words. */
    readonly code: ApiErrorCode = 'UNREADABLE',
    /** False when the server said nothing readable and the message is only 'HTTP {status}'. */
    readonly fromServer = true,
    /** The refusal's whole answer: a feature reads its own fields there (by its schema), never the words. */
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** An error answer's code, when it is one of the closed list. */
export function errorCodeOf(body: unknown): ErrorCode | 'UNREADABLE' {
  const code = (body as { code?: unknown } | null)?.code;
  return isErrorCode(code) ? code : 'UNREADABLE';
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Send the stored token as a bearer token (admin, member and media calls). */
  auth?: boolean;
  signal?: AbortSignal;
  /** Set on the replay after the password dialog, so a refusal then is not asked about twice. */
  reauthed?: boolean;
}

/**
 * The one wrapper for API calls: JSON in and out, bearer token when asked,
 * FormData sent as multipart. A text answer counts as a success wrapper. On error the message
 * is the body's `message` (or `msg`), else the raw text, else 'HTTP {status}'.
 */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  const token = options.auth ? getToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  const proof = token ? currentProof() : null;
  if (proof) headers['X-Reauth'] = proof;

  const response = await fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body:
      options.body === undefined
        ? undefined
        : isForm
          ? (options.body as FormData)
          : JSON.stringify(options.body),
    signal: options.signal,
    cache: 'no-store',
  }).catch((failure: unknown) => {
    // fetch rejects with a TypeError when no answer came; an abort stays as it is.
    if (failure instanceof TypeError) throw new ApiError(failure.message, 0, 'NETWORK', false);
    throw failure;
  });

  const text = await response.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = { success: response.ok, message: text };
  }

  if (!response.ok) {
    const body = (data ?? {}) as { message?: string; msg?: string; error?: string };
    const code = errorCodeOf(data);
    // A change that can take the site: the console asks for the password, then sends the call again.
    if (code === 'REAUTH_REQUIRED' && token && !options.reauthed) {
      if (await askForPassword()) return api<T>(path, { ...options, reauthed: true });
      throw new ApiError(
        'Not changed: your password was not confirmed.',
        response.status,
        'REAUTH_CANCELLED',
      );
    }
    if (options.auth && token) {
      const gone = SIGNED_OUT_BECAUSE[response.status === 401 ? 'UNAUTHENTICATED' : code];
      if (gone) {
        window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
        signOutWithMessage(gone);
      }
    } else if (response.status === 401 && options.auth && !sessionEndedHere()) {
      // Sent without a token: another tab signed out. Forget it so the guards send the user to sign in.
      clearToken();
      window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
    }
    const message = body.message || body.msg || body.error || text;
    throw new ApiError(message || `HTTP ${response.status}`, response.status, code, Boolean(message), body);
  }
  return data as T;
}
