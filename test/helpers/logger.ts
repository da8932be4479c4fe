import type { FastifyBaseLogger } from 'fastify';

export interface LogLine {
  level: string;
  msg: string;
  /** Date.now() when it was said (vitest's fake clock when timers are faked). */
  time: number;
  [field: string]: unknown;
}

/**
 * A logger that keeps its lines in `lines` ({level, msg, time, ...fields}), for code that takes a
 * logger (the job runner): tests read what it said, how often and with which fields.
 */
export function recordingLogger(): { logger: FastifyBaseLogger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: string) =>
    (fields: unknown, msg?: string): void => {
      if (typeof fields === 'string') lines.push({ level, msg: fields, time: Date.now() });
      else lines.push({ ...(fields as object), level, msg: msg ?? '', time: Date.now() });
    };
  const logger = {
    level: 'trace',
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: () => {},
    child: () => logger,
  };
  return { logger: logger as unknown as FastifyBaseLogger, lines };
}
