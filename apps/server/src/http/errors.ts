/** HTTP errors: always `{ error: { code, message } }`; 5xx details stay in the log. */
import type { ErrorBody, ErrorCode } from '@bagh/protocol';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { StoreUnavailableError } from '../storage/guarded.js';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const errorBody = (code: ErrorCode, message: string): ErrorBody => ({ error: { code, message } });

export function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(errorBody(code, message));
}

const codeForStatus = (status: number): ErrorCode =>
  status === 404
    ? 'NOT_FOUND'
    : status === 429
      ? 'RATE_LIMITED'
      : status === 401 || status === 403
        ? 'UNAUTHORIZED'
        : 'BAD_REQUEST';

export function installErrorHandler(fastify: FastifyInstance): void {
  fastify.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) return sendError(reply, error.statusCode, error.code, error.message);
    if (error instanceof StoreUnavailableError) {
      request.log.debug({ err: error, url: request.url }, 'store unavailable');
      return sendError(reply, 503, 'UNAVAILABLE', 'the game could not be saved or read; try again');
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      request.log.debug({ err: error, url: request.url }, 'request rejected');
      return sendError(reply, status, codeForStatus(status), error.message);
    }
    request.log.error(
      { err: error, request: { method: request.method, url: request.url } },
      'unhandled error',
    );
    return sendError(reply, 500, 'INTERNAL', 'internal server error');
  });
}
