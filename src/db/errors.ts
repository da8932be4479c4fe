/**
 * True when an error means the database could not be reached (refused, reset, terminated,
 * pool exhausted), as opposed to a bad query. Each API answers these with a clean 503.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return true;
  // SQLSTATE class 08 (connection exception), 57P01-57P03 (admin shutdown, crash, cannot connect now)
  if (/^08/.test(code) || /^57P0[1-3]$/.test(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  if (
    /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
      message,
    )
  )
    return true;
  return e.cause !== undefined && e.cause !== err ? isDatabaseUnavailable(e.cause) : false;
}
