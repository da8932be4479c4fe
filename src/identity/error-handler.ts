import type { FastifyInstance } from 'fastify';
import { codeForStatus, useErrorFormat, type ErrorFormat } from '../plugins/error-handler.js';
import { IdentityError } from './errors.js';
import { MAX_UPLOAD_BYTES } from './uploads/inspect.js';

/** The multipart plugin's own limit and content-type errors, with the status and message identity answers them with. */
const MULTIPART_ERRORS: Record<string, readonly [number, string]> = {
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'The request must be multipart/form-data'],
  FST_REQ_FILE_TOO_LARGE: [413, `The file is larger than ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB`],
  FST_FILES_LIMIT: [422, 'Send exactly one file, in the field "file"'],
  FST_FIELDS_LIMIT: [422, 'Too many form fields'],
  FST_PARTS_LIMIT: [422, 'Too many form parts'],
  FST_PROTO_VIOLATION: [422, 'Invalid form field name'],
};

/** True for the multipart plugin's own limit and content-type errors (answered by MULTIPART_ERRORS). */
export function isMultipartError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code in MULTIPART_ERRORS;
}

/** Exactly `{detail}`; a refused request names its first bad field, 422. */
export const identityErrorFormat: ErrorFormat = {
  body: ({ message }) => ({ detail: message }),
  validation: { status: 422, issues: 'first' },
  ownError: (err) =>
    err instanceof IdentityError ? { status: err.statusCode, code: codeForStatus(err.statusCode), message: err.detail } : undefined,
  byCode: MULTIPART_ERRORS,
};

/** Every error in this scope, the framework's own included, becomes exactly `{detail}`. */
export function useDetailErrors(scope: FastifyInstance): void {
  useErrorFormat(scope, identityErrorFormat);
}
