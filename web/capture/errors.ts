/** Failures of the capture calls, without browser types, so the wording logic is testable anywhere. */

/** An answer other than 2xx: the status, the API's `detail`, and Retry-After in seconds when sent. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly retryAfterSeconds: number | null,
    /** The refusal's `code` when the API names one (`image_too_small` at upload), else null. */
    readonly code: string | null = null,
  ) {
    super(`HTTP ${status}: ${detail}`);
  }
}

/** The request never got an answer (no network, connection lost). */
export class OfflineError extends Error {}
