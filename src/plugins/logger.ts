import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

/** Paths pino replaces with [redacted]: nothing secret reaches a log line. */
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["webhook-signature"]',
  'req.headers["service-signature"]',
  'headers.authorization',
  '*.key',
  '*.secret',
  '*.token',
  '*.handoff_token',
  '*.password',
  '*.privateKey',
  '*.signingKey',
];

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: { paths: redactPaths, censor: '[redacted]' },
    ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty' } } : {}),
  };
}
