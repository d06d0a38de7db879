/**
 * The closed list of error codes the API can answer with. Services throw an AppError
 * carrying one of these; the server's error handler maps it to the HTTP status here.
 */
export const ERROR_STATUS = {
  VALIDATION: 400,
  INVALID_CREDENTIALS: 400,
  INVALID_TOKEN: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  /** A change that can take the site needs the password again (see X-Reauth in docs/console.md). */
  REAUTH_REQUIRED: 403,
  ACCOUNT_SUSPENDED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  /** The disk holding the data is full: nothing was saved. */
  STORAGE_FULL: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Every error response has this shape. `msg` repeats `message` because the sign-in and
 * registration screens read `msg` while everything else reads `message`.
 */
export interface ErrorBody {
  success: false;
  code: ErrorCode;
  message: string;
  msg: string;
}
