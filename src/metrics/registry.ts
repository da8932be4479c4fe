import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Meter } from './meter.js';
import { jobGauges, type JobGaugeSources } from './job-gauges.js';
import { LANES } from '../jobs/kinds.js';

/** Seconds, from a few milliseconds to the webhook timeout's default; the OpenTelemetry HTTP buckets. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** The identity pipeline runs the face models: seconds to tens of seconds. */
const PIPELINE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 45, 90];
/** Up to the sealer's largest batch (src/governance/chain.ts, MAX_BATCH). */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64];

/** A scrape must answer within Prometheus' timeout even when the database hangs. */
const PING_TIMEOUT_MS = 2_000;

/** 1 when `work` resolves within `ms`, 0 when it rejects or takes longer. */
async function answers(work: Promise<unknown>, ms: number): Promise<0 | 1> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<0>((resolve) => {
    timer = setTimeout(() => resolve(0), ms);
  });
  try {
    return await Promise.race([work.then(() => 1 as const), late]);
  } catch {
    return 0;
  } finally {
    clearTimeout(timer);
  }
}

/** Methods named as themselves; any other is `_OTHER`, so a client cannot mint label values. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** A pg pool's counts (pg.Pool has these three). */
interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

interface MetricsSources extends JobGaugeSources {
  /** The database pools by name (PostgreSQL; none on PGlite, which has one in-process connection). */
  pools: Record<string, PoolCounts>;
  /** The Redis client's state, when REDIS_URL is set: `ready` means reachable. */
  redisStatus?: () => string;
  /** Throws when the database does not answer (Database.ping). */
  pingDatabase: () => Promise<void>;
  /** The face workers' analyses, when face checks are on. */
  faces?: () => { running: number; waiting: number };
}

export interface Metrics {
  registry: Registry;
  meter: Meter;
  /** One answered HTTP request: `route` is the matched route pattern, undefined when none matched. */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void;
}

/**
 * The process's metrics (docs/operations.md, "Metrics"), one registry per app. Counters and histograms are
 * updated where the work happens, through `meter`; the gauges are read when Prometheus scrapes
 * (collect callbacks), so nothing on a request's or a job's path reads anything for them.
 */
export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const httpDuration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP server requests, by route pattern.',
    labelNames: ['http_request_method', 'http_route', 'http_response_status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered (2xx), failed (retried later), gave_up (no attempt follows).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const deliveryDuration = new Histogram({
    name: 'webhook_delivery_duration_seconds',
    help: 'Duration of one webhook attempt, from connecting to the answer or the timeout.',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const decisions = new Counter({
    name: 'identity_decisions_total',
    help: 'Identity pipeline decisions by status and reason (reason "none" for approvals, "pipeline_error" for faults).',
    labelNames: ['status', 'reason'] as const,
    registers: [registry],
  });
  const pipelineDuration = new Histogram({
    name: 'identity_pipeline_duration_seconds',
    help: 'Duration of one identity pipeline run that decided a verification.',
    buckets: PIPELINE_BUCKETS,
    registers: [registry],
  });
  const sealed = new Counter({
    name: 'governance_records_sealed_total',
    help: 'Governance records sealed into their chains, by disposition.',
    labelNames: ['disposition'] as const,
    registers: [registry],
  });
  const sealBatch = new Histogram({
    name: 'governance_seal_batch_size',
    help: 'Records sealed per statement (group commit).',
    buckets: BATCH_BUCKETS,
    registers: [registry],
  });
  const claimFailures = new Counter({
    name: 'jobs_claim_failures_total',
    help: "Failed claims of this process's job lanes (each followed by a growing delay before the lane claims again).",
    labelNames: ['lane'] as const,
    registers: [registry],
  });
  // Every outcome and lane from the start, so rates and alerts see 0 rather than no series.
  for (const outcome of ['delivered', 'failed', 'gave_up']) deliveries.inc({ outcome }, 0);
  for (const lane of LANES) claimFailures.inc({ lane }, 0);

  new Gauge({
    name: 'db_client_connection_count',
    help: 'Database connections of each pool by state (used, idle).',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [pool, p] of Object.entries(sources.pools)) {
        this.set({ pool, state: 'used' }, p.totalCount - p.idleCount);
        this.set({ pool, state: 'idle' }, p.idleCount);
      }
    },
  });
  new Gauge({
    name: 'db_client_connection_pending_requests',
    help: 'Queries waiting for a connection of each pool.',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [pool, p] of Object.entries(sources.pools)) this.set({ pool }, p.waitingCount);
    },
  });
  if (sources.redisStatus) {
    const status = sources.redisStatus;
    new Gauge({
      name: 'redis_up',
      help: "1 when the Redis client's connection is ready, 0 while it is down or reconnecting.",
      registers: [registry],
      collect() {
        this.set(status() === 'ready' ? 1 : 0);
      },
    });
  }
  if (sources.faces) {
    const faces = sources.faces;
    new Gauge({
      name: 'identity_face_analyses',
      help: 'Face analyses in this process by state: running in a worker, or waiting for one.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const { running, waiting } = faces();
        this.set({ state: 'running' }, running);
        this.set({ state: 'waiting' }, waiting);
      },
    });
  }
  new Gauge({
    name: 'database_up',
    help: 'Whether the database answered a ping at this scrape (1) or not within 2 s (0).',
    registers: [registry],
    async collect() {
      this.set(await answers(sources.pingDatabase(), PING_TIMEOUT_MS));
    },
  });
  jobGauges(registry, sources);

  // One child per (method, route, status), found by a plain string: prom-client would otherwise
  // sort and hash the label object at every request.
  const httpChildren = new Map<string, ReturnType<typeof httpDuration.labels>>();
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const key = `${method} ${status} ${route ?? ''}`;
      let child = httpChildren.get(key);
      if (!child) {
        child = httpDuration.labels({
          http_request_method: KNOWN_METHODS.has(method) ? method : '_OTHER',
          http_route: route ?? '',
          http_response_status_code: status,
        });
        httpChildren.set(key, child);
      }
      child.observe(seconds);
    },
    meter: {
      webhookAttempt(outcome, seconds) {
        deliveries.inc({ outcome });
        deliveryDuration.observe(seconds);
      },
      identityDecision(status, reason, seconds) {
        decisions.inc({ status, reason: reason ?? 'none' });
        pipelineDuration.observe(seconds);
      },
      governanceBatchSealed(dispositions) {
        sealBatch.observe(dispositions.length);
        for (const disposition of dispositions) sealed.inc({ disposition });
      },
      jobClaimFailed(lane) {
        claimFailures.inc({ lane });
      },
    },
  };
}
