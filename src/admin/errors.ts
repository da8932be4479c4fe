import { EnvelopeError } from '../plugins/envelope-errors.js';

/** The operator API's own errors; the services it calls bring theirs (ticketing, governance, profiles). */
export const operatorErrors = {
  unauthorized: () => new EnvelopeError(401, 'UNAUTHORIZED', 'A valid operator token is required'),
  rateLimited: (after: string) => new EnvelopeError(429, 'RATE_LIMITED', `Rate limit exceeded, retry in ${after}`),
  /** Without ADMIN_TOKEN every path under /admin/v1 answers this, saying why and how to turn it on. */
  disabled: () =>
    new EnvelopeError(
      404,
      'NOT_FOUND',
      'The operator API is disabled: set ADMIN_TOKEN (16 characters or more) in the environment and restart the server to enable it',
    ),
};
