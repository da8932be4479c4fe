import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/errors.js';

/** One refused part of a request: where it is (`body.name`, `querystring.limit`) and what is wrong with it. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** An error answer before it takes an API's shape. */
export interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
  details?: ErrorDetail[];
}

/**
 * An error with a status and a stable code, thrown by the services and hooks of every API and
 * of the shared mechanisms (webhooks, profiles); each API's format decides how it looks on the
 * wire, so an error of one service is answered as it is by any API that calls it.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
  }
}

/** What makes one API's error answers its own; everything else is the same for every API. */
export interface ErrorFormat {
  /** The body of every error answer. */
  body(answer: Omit<ErrorAnswer, 'status'>): object;
  /**
   * A request the route schema refuses: the status, and whether every issue is listed in
   * `details` (message "The request is not valid") or only the first one is named in the message.
   */
  validation: { status: 400 | 422; issues: 'details' | 'first' };
  /** The API's own error types besides ApiError, as answers; undefined for anything else. */
  ownError?(err: unknown): ErrorAnswer | undefined;
  /** The message of a 429 that is not one of the API's own errors; without it, the limiter's own message. */
  rateLimitMessage?: string;
}

/**
 * The code of a framework or plugin 4xx by its status (Fastify's own errors carry none of ours):
 * a body that is not JSON is a 400 VALIDATION_ERROR, an unknown method a 405, and so on.
 */
const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  411: 'LENGTH_REQUIRED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
};

export function codeForStatus(status: number): string {
  return CODE_BY_STATUS[status] ?? 'BAD_REQUEST';
}

/** An ApiError as the answer it gives. */
export function answerOf(err: ApiError): ErrorAnswer {
  return { status: err.statusCode, code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
}

/** The message of a refused request whose problems are listed in `details`. */
export const VALIDATION_MESSAGE = 'The request is not valid';
const UNAVAILABLE: ErrorAnswer = { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable' };
const INTERNAL: ErrorAnswer = { status: 500, code: 'INTERNAL', message: 'Internal server error' };

function validationAnswer(format: ErrorFormat, err: FastifyError & { validation: { instancePath: string; message?: string }[] }) {
  const details = err.validation.map((v) => ({
    path: [err.validationContext, ...String(v.instancePath).split('/').filter(Boolean)].join('.'),
    message: v.message ?? 'invalid',
  }));
  const { status, issues } = format.validation;
  if (issues === 'details') return { status, code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGE, details };
  const first = details[0] ?? { path: String(err.validationContext ?? ''), message: 'invalid' };
  return { status, code: 'VALIDATION_ERROR', message: `${first.path}: ${first.message}` };
}

/**
 * The answer to any error in an API's scope, the framework's and plugins' own included. A 4xx
 * keeps its status and message; a 5xx never shows its message, a stack or SQL to the client: it
 * is logged with the request id instead.
 */
export function errorAnswer(format: ErrorFormat, err: FastifyError, req: FastifyRequest): ErrorAnswer {
  if (err instanceof ApiError) return answerOf(err);
  const own = format.ownError?.(err);
  if (own) return own;
  if (hasZodFastifySchemaValidationErrors(err)) return validationAnswer(format, err);
  const status = err.statusCode ?? 500;
  if (status === 429) {
    return { status, code: 'RATE_LIMITED', message: format.rateLimitMessage ?? (err.message || 'Rate limit exceeded') };
  }
  if (status >= 400 && status < 500) return { status, code: codeForStatus(status), message: err.message || VALIDATION_MESSAGE };
  if (status === 503 || isDatabaseUnavailable(err)) {
    req.log.warn({ err }, 'database unavailable');
    return UNAVAILABLE;
  }
  req.log.error({ err }, 'unhandled error');
  return INTERNAL;
}

function send(format: ErrorFormat, reply: FastifyReply, { status, ...answer }: ErrorAnswer): FastifyReply {
  return reply.status(status).send(format.body(answer));
}

/** The error handler of one API's scope: every error becomes an answer in `format`. */
export function createErrorHandler(format: ErrorFormat) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => send(format, reply, errorAnswer(format, err, req));
}

/** The 404 of a path no route of the API serves. */
export function routeNotFound(req: FastifyRequest): ApiError {
  return new ApiError(404, 'NOT_FOUND', `Route ${req.method} ${req.url.split('?')[0]} not found`);
}

/** The not-found handler of one API's scope, in `format`. */
export function createNotFoundHandler(format: ErrorFormat) {
  return (req: FastifyRequest, reply: FastifyReply) => send(format, reply, answerOf(routeNotFound(req)));
}

/** Sets both handlers on an API's scope (the not-found one only where the scope has a prefix of its own). */
export function useErrorFormat(scope: FastifyInstance, format: ErrorFormat, opts: { notFound?: boolean } = {}): void {
  scope.setErrorHandler(createErrorHandler(format));
  if (opts.notFound !== false) scope.setNotFoundHandler(createNotFoundHandler(format));
}
