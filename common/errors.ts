/**
 * The closed list of error codes the API can answer with. Services throw an AppError
 * carrying one of these; the server's error handler maps it to the HTTP status here, and
 * answers anything else (an error of a library, a code not in this list) as INTERNAL.
 * The client tells refusals apart by these codes, never by their words: a refusal it must
 * act on (sign out, ask for the password) gets a code of its own.
 */
export const ERROR_STATUS = {
  VALIDATION: 400,
  INVALID_CREDENTIALS: 400,
  INVALID_TOKEN: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  /** A signed-in, active account that is not an administrator asked for the console's API. */
  NOT_ADMIN: 403,
  /** A change that can take the site needs the password again (see X-Reauth in docs/console.md). */
  REAUTH_REQUIRED: 403,
  ACCOUNT_SUSPENDED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /**
   * A console tier change on a member whose tier Stripe manages (a live subscription), sent
   * without `confirmManagedByStripe: true`: the administrator is to be warned first.
   */
  TIER_MANAGED_BY_STRIPE: 409,
  /**
   * A media library delete that takes a picture a course still shows (its cover, a lesson's
   * picture), sent without `confirmCourseUse: true`: the message names the course and lesson.
   */
  PICTURE_IN_COURSE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /**
   * An account was not deleted because its paid subscription could not be cancelled at the
   * payment provider (unreachable, refusing, or no longer set up): nothing was deleted, so nobody
   * goes on paying for an account that is gone. 424 (Failed Dependency), not a 5xx: nginx does not
   * send it on to another instance, and it is not the server's fault.
   */
  SUBSCRIPTION_NOT_CANCELLED: 424,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  /** The disk holding the data is full: nothing was saved. */
  STORAGE_FULL: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** True for a code of the closed list (an answer's `code` read from the wire). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}

/**
 * Every error response has this shape (a few calls add fields beside it: see
 * `common/schemas/envelopes.ts`). `msg` repeats `message` because the sign-in and
 * registration screens read `msg` while everything else reads `message`.
 */
export interface ErrorBody {
  success: false;
  code: ErrorCode;
  message: string;
  msg: string;
}
