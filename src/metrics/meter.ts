/**
 * What the APIs report about their work, handed to them when the app is built (src/app.ts):
 * the metrics registry implements it when METRICS_TOKEN is set, `silentMeter` otherwise, so an
 * API never knows whether anyone is counting and never imports the registry.
 */
export interface Meter {
  /** One webhook attempt ended: delivered (2xx), failed (another attempt follows) or gave_up (none will). */
  webhookAttempt(outcome: WebhookOutcome, seconds: number): void;
  /** The identity pipeline decided a verification (`reason` null for an approval), after `seconds` of running. */
  identityDecision(status: string, reason: string | null, seconds: number): void;
  /** One batch of governance records sealed in one statement. */
  governanceBatchSealed(dispositions: readonly string[]): void;
  /** A job lane's claim statement failed (the database did not answer, most likely). */
  jobClaimFailed(lane: string): void;
}

type WebhookOutcome = 'delivered' | 'failed' | 'gave_up';

export const silentMeter: Meter = {
  webhookAttempt: () => {},
  identityDecision: () => {},
  governanceBatchSealed: () => {},
  jobClaimFailed: () => {},
};
