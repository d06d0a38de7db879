import { clearToken, getToken } from './auth-token';

/**
 * Announced when the server refuses the stored token (the session was ended: signed out
 * elsewhere, a password change, an administrator). The signed-in screens then go to sign in.
 */
export const SESSION_ENDED_EVENT = 'members:session-ended';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    /** False when the server said nothing readable and the message is only 'HTTP {status}'. */
    readonly fromServer = true,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Send the stored token as a bearer token (admin, member and media calls). */
  auth?: boolean;
  signal?: AbortSignal;
}

/**
 * The one wrapper for API calls (SPEC section 7): JSON in and out, bearer token when asked,
 * FormData sent as multipart. A text answer counts as a success wrapper. On error the message
 * is the body's `message` (or `msg`), else the raw text, else 'HTTP {status}'.
 */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  const token = options.auth ? getToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;

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
  });

  const text = await response.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = { success: response.ok, message: text };
  }

  if (!response.ok) {
    const body = (data ?? {}) as { message?: string; msg?: string; error?: string; code?: string };
    // A rejected token means the session is over; forget it so the guards send the user to sign in.
    if (response.status === 401 && options.auth) {
      clearToken();
      window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
    }
    const message = body.message || body.msg || body.error || text;
    throw new ApiError(message || `HTTP ${response.status}`, response.status, body.code, Boolean(message));
  }
  return data as T;
}
