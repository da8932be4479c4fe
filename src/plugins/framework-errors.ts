import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { codeForStatus, type ErrorFormat } from './error-handler.js';

/** The API that serves the paths under `prefixes` (each ending in '/'), and its error format. */
interface ApiPaths {
  prefixes: readonly string[];
  format: ErrorFormat;
}

const MESSAGES: Readonly<Record<string, string>> = {
  FST_ERR_BAD_URL: 'The URL is not valid: a percent-encoded part is not UTF-8',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long',
};

/**
 * Fastify answers a URL it cannot decode (and a path parameter over its length limit) before
 * routing, so no API scope's error handler sees it; without this its own body, in neither API's
 * format, went out without the usual headers. The answer keeps Fastify's status and takes the
 * format of the API whose path it is (the first of `apis` whose prefix matches).
 */
export function createFrameworkErrors(apis: readonly ApiPaths[]) {
  const formatFor = (path: string) => apis.find(({ prefixes }) => prefixes.some((prefix) => path.startsWith(prefix)))?.format;
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): void => {
    // These replies skip the root onSend hook (src/app.ts), so the request id is set here.
    void reply.header('x-request-id', req.id);
    const format = formatFor((req.raw.url ?? '/').split('?')[0]!);
    const message = err.code ? MESSAGES[err.code] : undefined;
    if (!format || !message) {
      void reply.send(err);
      return;
    }
    const status = err.statusCode ?? 400;
    void reply.status(status).send(format.body({ code: codeForStatus(status), message }));
  };
}
