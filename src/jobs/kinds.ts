import { z } from 'zod';

/**
 * Kinds of work that never wait for each other: each lane has its own slots, so webhook
 * deliveries to slow receivers cannot delay an identity decision (docs/operations.md, Operations).
 */
export const LANES = ['identity', 'deliveries', 'housekeeping'] as const;
export type LaneName = (typeof LANES)[number];

/**
 * Every kind of durable work the process runs: what a row of `jobs` may hold, like the table
 * definitions in `src/db/schema/`. The queue checks a stored payload against its kind before
 * the handler sees it (a payload that does not fit fails its job), and types the handler and
 * `enqueue` by the queue's name.
 */
export const JOB_KINDS = {
  /** One event of the outbox to its deliveries (src/webhooks/dispatcher.ts). */
  'webhooks.fanout': { lane: 'housekeeping', payload: z.object({ eventId: z.uuid() }) },
  /** The next attempt of one delivery. */
  'webhooks.deliver': { lane: 'deliveries', payload: z.object({ deliveryId: z.uuid() }) },
  /**
   * The newest checkpoint of one profile's transparency log to one witness (src/governance/witness/
   * submissions.ts); the witness's name is its concurrency key, so one that is down is paused.
   */
  'governance.witness': { lane: 'deliveries', payload: z.object({ profileId: z.uuid(), witness: z.string().min(1) }) },
  /** The decision pipeline of one verification (src/identity/pipeline/run.ts). */
  'identity.pipeline': { lane: 'identity', payload: z.object({ verificationId: z.uuid() }) },
} as const satisfies Record<string, { lane: LaneName; payload: z.ZodType }>;

export type JobName = keyof typeof JOB_KINDS;

/** The payload of a known queue; a queue known only to its caller (tests) carries anything. */
export type PayloadOf<Q extends string> = Q extends JobName ? z.output<(typeof JOB_KINDS)[Q]['payload']> : unknown;

export function isJobName(queue: string): queue is JobName {
  return Object.hasOwn(JOB_KINDS, queue);
}
