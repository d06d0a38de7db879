import { ERROR_STATUS, type ErrorBody, type ErrorCode, isErrorCode } from '@common/errors';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error';
import { recordFailure } from './request-log';

/** Fastify's own client errors (bad JSON, body too large, ...) mapped onto our closed list. */
const FASTIFY_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** The 404 for a path no route answers, worded the same wherever it is given. */
export function noRouteError(method: string, url: string): AppError {
  return new AppError('NOT_FOUND', `No route for ${method} ${url.split('?')[0]}`);
}

/**
 * Makes every unknown path under a plugin's prefix pass that plugin's hooks first, so that an
 * admin-only scope answers strangers 401/403 and reveals nothing about which paths exist.
 */
export function refuseUnknownPaths(scope: FastifyInstance): void {
  scope.all('/*', async (request) => {
    throw noRouteError(request.method, request.url);
  });
}

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { success: false, code, message, msg: message };
}

/**
 * The one place errors become responses, always with a code of the closed list
 * (`common/errors.ts`): an AppError keeps its own, Fastify's client errors are mapped by status,
 * anything else (a code not in the list, another library's error) is INTERNAL. Details of 5xx
 * errors are logged (by the request log, on the same line as the request), never sent.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError && isErrorCode(error.code)) {
      if (error.status >= 500) recordFailure(request, error);
      return reply.code(error.status).send(errorBody(error.code, error.message));
    }
    const status = (error as FastifyError).statusCode ?? 500;
    const code = FASTIFY_STATUS_CODES[status];
    if (code) {
      const message = status === 413 ? 'The request is too large.' : error.message;
      return reply.code(ERROR_STATUS[code]).send(errorBody(code, message));
    }
    recordFailure(request, error);
    return reply.code(500).send(errorBody('INTERNAL', 'Something went wrong on our side. Please try again.'));
  });
}
