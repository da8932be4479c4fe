/**
 * How a lane behaves while its database does not answer (docs/operations.md, "Background jobs"): it claims
 * again after growing delays instead of at every poll, and says so in the log now and then
 * instead of at every failure. Pure: the runner keeps the timers and the counts.
 */

/** The first wait after a failed claim, and the longest: 250 ms, 500 ms, 1 s … 5 s. */
export const CLAIM_RETRY_FIRST_MS = 250;
export const CLAIM_RETRY_MAX_MS = 5_000;
/** At most one warning per lane in this long; the ones left out are counted in the next. */
export const WARNING_INTERVAL_MS = 30_000;

/** Milliseconds before the next claim after `failures` failed claims in a row (1 or more). */
export function claimRetryMs(failures: number): number {
  return Math.min(CLAIM_RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1), CLAIM_RETRY_MAX_MS);
}

/** A warning to write now, with the number of its kind left out since the last one written. */
export interface Warning {
  suppressed: number;
}

export interface WarningThrottle {
  /** One more occurrence at `now` (ms): a warning to write, or null when it is left out. */
  note(now: number): Warning | null;
}

/**
 * Lets one warning through per `intervalMs`, the first at once. It keeps its memory across
 * recoveries: a database that comes and goes every second still gets one line per interval.
 */
export function warningThrottle(intervalMs = WARNING_INTERVAL_MS): WarningThrottle {
  let lastAt: number | undefined;
  let suppressed = 0;
  return {
    note(now) {
      if (lastAt !== undefined && now - lastAt < intervalMs) {
        suppressed += 1;
        return null;
      }
      const warning = { suppressed };
      lastAt = now;
      suppressed = 0;
      return warning;
    },
  };
}
