import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

type ErrorBody = (code: string, message: string) => object;

const envelope: ErrorBody = (code, message) => ({ success: false, error: { code, message } });
const governance: ErrorBody = (code, message) => ({ error: { code, message } });
const identity: ErrorBody = (_code, message) => ({ detail: message });

/** The path prefixes the governance API serves under /v1 (src/governance/plugin.ts); the rest of /v1 is identity's. */
const GOVERNANCE_PREFIXES = ['/v1/governance/', '/v1/proof/', '/v1/crypto/', '/v1/challenge/', '/v1/carrier/'];

/** The error format of the API a path belongs to (README: one format per API), or undefined outside them. */
function errorBodyFor(path: string): ErrorBody | undefined {
  if (path.startsWith('/admin/v1/') || path.startsWith('/api/v1/')) return envelope;
  if (GOVERNANCE_PREFIXES.some((prefix) => path.startsWith(prefix))) return governance;
  if (path.startsWith('/v1/')) return identity;
  return undefined;
}

const ANSWERS: Record<string, [string, string]> = {
  FST_ERR_BAD_URL: ['VALIDATION_ERROR', 'The URL is not valid: a percent-encoded part is not UTF-8'],
  FST_ERR_MAX_PARAM_LENGTH: ['URI_TOO_LONG', 'A path parameter is too long'],
};

/**
 * Fastify answers a URL it cannot decode (and a path parameter over its length limit) before
 * routing, so no API scope's error handler sees it; without this its own body, in neither API's
 * format, went out without the usual headers. The answer keeps Fastify's status and takes the
 * format of the API whose path it is.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  // These replies skip the root onSend hook (src/app.ts), so the request id is set here.
  void reply.header('x-request-id', req.id);
  const body = errorBodyFor((req.raw.url ?? '/').split('?')[0]!);
  const answer = err.code ? ANSWERS[err.code] : undefined;
  if (!body || !answer) {
    void reply.send(err);
    return;
  }
  void reply.status(err.statusCode ?? 400).send(body(...answer));
}
