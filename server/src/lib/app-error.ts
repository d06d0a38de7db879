import { ERROR_STATUS, type ErrorCode } from '@common/errors';

/** The one error type services throw. The HTTP status follows from the code. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
  }
}
