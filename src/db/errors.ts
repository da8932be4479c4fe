/** Node's socket errors: the connection to the database could not be made, or was lost. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * SQLSTATEs that say the database cannot take this work now, not that the work is wrong
 * (PostgreSQL's Appendix A). Each is what some moment of a failover answers (docs/failover.md):
 * - 57P01 admin_shutdown, 57P02 crash_shutdown: the member is going down, or its backends are terminated;
 * - 57P03 cannot_connect_now: it is starting up, shutting down or in recovery;
 * - 25006 read_only_sql_transaction: the member reached takes no writes. A standby being promoted
 *   is one: Patroni's REST API answers `/primary` with 200 as soon as it holds the leader key,
 *   before its PostgreSQL has left recovery, so HAProxy sends new connections to it while every
 *   write there still fails like this, for up to a second;
 * - 40001 serialization_failure, 40P01 deadlock_detected: the transaction was rolled back whole,
 *   and PostgreSQL's advice is to run it again (a standby's "conflict with recovery" is 40001);
 * - 40003 statement_completion_unknown: whether it committed is not known, as when the answer to
 *   a COMMIT is lost with its connection.
 */
const RETRY_LATER_SQLSTATES = new Set(['57P01', '57P02', '57P03', '25006', '40001', '40P01', '40003']);

/**
 * True when an error means the database cannot do this work now (refused, reset, terminated,
 * pool exhausted, not the primary (yet), the transaction rolled back to be retried), as opposed to
 * a bad query. Each API answers these with a clean 503, which the partner may retry — a write with
 * its `Idempotency-Key` (docs/failover.md); nothing of a failed transaction was committed, or its
 * outcome is unknown and the retry answers what was stored.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (SOCKET_CODES.has(code)) return true;
  // SQLSTATE class 08: connection exception.
  if (/^08/.test(code) || RETRY_LATER_SQLSTATES.has(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  // node-postgres's own errors carry no code: a connection that ended, failed or never came.
  if (
    /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect/i.test(
      message,
    )
  )
    return true;
  return e.cause !== undefined && e.cause !== err ? isDatabaseUnavailable(e.cause) : false;
}
