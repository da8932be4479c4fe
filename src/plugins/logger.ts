import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

/** Paths pino replaces with [redacted]: nothing secret reaches a log line. */
const redactPaths = [
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

/** JSON lines to `stream` (tests) or stdout; pretty only when a person watches a terminal. */
export function loggerOptions(config: Config, stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  const base = { level: config.LOG_LEVEL, redact: { paths: redactPaths, censor: '[redacted]' } };
  if (stream) return { ...base, stream };
  return process.stdout.isTTY ? { ...base, transport: { target: 'pino-pretty' } } : base;
}
