import type { DeliveryPolicy } from './types.js';

/** The policy of registered endpoints (ticketing). */
export const DEFAULT_POLICY = 'default';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** 8 attempts over about 24 hours (plus jitter): 1 min, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h. */
export const defaultDelaysMs = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 8 * HOUR, 8 * HOUR];

export interface ScheduleSettings {
  /** WEBHOOK_RETRY_DELAYS_MS: replaces every policy's delays. */
  overrideDelaysMs?: number[];
  /** WEBHOOK_TIMEOUT_MS: no attempt waits longer than this. */
  timeoutMs: number;
}

/**
 * The delays and timeout a delivery actually uses. The override list keeps each policy's
 * number of attempts where it is long enough, and gives fewer attempts where it is shorter.
 * A policy's own timeout is kept unless WEBHOOK_TIMEOUT_MS is shorter.
 */
export function effectivePolicy(policy: DeliveryPolicy, settings: ScheduleSettings): DeliveryPolicy {
  const delaysMs = settings.overrideDelaysMs ? settings.overrideDelaysMs.slice(0, policy.delaysMs.length) : policy.delaysMs;
  return { delaysMs, timeoutMs: Math.min(policy.timeoutMs, settings.timeoutMs) };
}

/** The wait before attempt `attempt + 1`, stretched by up to 20 % so retries of many deliveries spread out. */
export function retryDelayMs(policy: DeliveryPolicy, attempt: number, random: () => number): number | undefined {
  const base = policy.delaysMs[attempt - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 + 0.2 * random()));
}
