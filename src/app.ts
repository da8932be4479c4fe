import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import { ReconnectLookupConnector } from './plugins/redis-connector.js';
import { cancelReconnectLookups } from './lib/reconnect-lookup.js';
import { validatorCompiler } from './plugins/validator.js';
import { adminApi } from './admin/plugin.js';
import { startKeyCache, startKeyUseRecorder } from './auth/api-keys.js';
import { openBlobStore } from './blobs/from-config.js';
import { BlobStoreUnavailable, type BlobStore } from './blobs/store.js';
import type { DataKeys } from './at-rest/data-keys.js';
import { sealedBlobStore, sealExistingBlobs } from './at-rest/sealed-blobs.js';
import { settleDataKeys } from './at-rest/settle.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { applyMigrations } from './db/migrate.js';
import { createJobQueue } from './jobs/queue.js';
import { enqueueOnly } from './jobs/enqueue-only.js';
import { jobListener } from './jobs/wake.js';
import { createFacePool } from './recognition/faces/pool.js';
import { createDocumentReader } from './recognition/document/reader.js';
import { idempotencyKeyPurge } from './idempotency/purge.js';
import { finishedJobPurge } from './jobs/purge.js';
import { systemClock, type Clock } from './lib/clock.js';
import { silentMeter } from './metrics/meter.js';
import { createMetrics } from './metrics/registry.js';
import { metricsRoutes } from './metrics/routes.js';
import './decorations.js';
import { identityApi } from './identity/plugin.js';
import { composeServices } from './compose.js';
import { identityRetention } from './identity/retention.js';
import { deliveryLogRetention } from './webhooks/retention.js';
import { identityErrorFormat } from './identity/errors.js';
import { envelopeFormat } from './plugins/envelope-errors.js';
import { createFrameworkErrors } from './plugins/framework-errors.js';
import { healthRoutes } from './plugins/health.js';
import { homeRoute } from './plugins/home.js';
import { loggerOptions } from './plugins/logger.js';
import { openApiDocs } from './docs/openapi.js';
import { responseSerializerCompiler } from './plugins/serializer.js';
import { securityHeaders } from './plugins/security-headers.js';
import { closeUnreadBodies } from './plugins/unread-bodies.js';
import { webApp } from './plugins/web-app.js';
import { governanceErrorFormat } from './governance/errors.js';
import { GOVERNANCE_PREFIXES, governanceApi, type GovernanceWorkOptions } from './governance/plugin.js';
import { ticketingApi } from './ticketing/plugin.js';
import type { Tracing } from './tracing/start.js';
import type { WebhookPlatformDeps } from './webhooks/platform.js';
import { createAuthBrake } from './plugins/auth-brake.js';

export interface AppOptions {
  clock?: Clock;
  blobs?: BlobStore;
  /** Run background job polling (the server does; tests drain jobs themselves). Default true. */
  startJobs?: boolean;
  /** A migrated PGlite data directory to start from (tests). */
  loadDataDir?: Blob;
  /**
   * The database, already being opened: the server starts opening it before it loads the rest
   * of the app's modules, so the embedded database's start-up overlaps theirs (README, Start).
   */
  database?: Promise<Database>;
  logger?: boolean;
  /** Webhook delivery: extra trusted CAs (tests' self-signed receivers) and the SSRF guard's DNS. */
  webhooks?: Pick<WebhookPlatformDeps, 'ca' | 'resolve'>;
  /** The transparency log's witnesses: extra trusted CAs (tests' self-signed witnesses). */
  witnesses?: { ca?: GovernanceWorkOptions['witnessCa'] };
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** The process's tracing, when OTEL_EXPORTER_OTLP_ENDPOINT turned it on (src/tracing/start.ts); its owner shuts it down. */
  tracing?: Tracing;
  /** Rows a retention purge erases or deletes per statement (default 500; tests make it small to cover several). */
  retentionBatch?: number;
}

/**
 * Seals the images stored before encryption at rest, once per store (src/at-rest/sealed-blobs.ts).
 * A bucket that cannot be reached does not stop the start: its images are read as they are
 * meanwhile, and the next start carries on.
 */
async function sealBlobsStoredBefore(blobs: BlobStore, keys: DataKeys, log: FastifyBaseLogger): Promise<void> {
  try {
    const { sealed, skipped } = await sealExistingBlobs(blobs, keys);
    if (!skipped) log.info({ sealedBlobs: sealed }, 'encryption at rest: sealed the blob store');
  } catch (err) {
    if (!(err instanceof BlobStoreUnavailable)) throw err;
    log.warn({ reason: err.message }, 'encryption at rest: the blob store cannot be reached; its files are sealed at the next start');
  }
}

/** What a worker instance answers outside /health, /ready and /metrics: the APIs are not here. */
function workerOnly(app: FastifyInstance): void {
  app.setNotFoundHandler((_req, reply) =>
    reply.status(404).send({
      error: { code: 'NOT_FOUND', message: 'This instance runs jobs only (ROLE=worker): the APIs are served by the api instances' },
    }),
  );
}

function trustProxyOption(config: Config): FastifyServerOptions['trustProxy'] {
  const hops = config.TRUST_PROXY_HOPS;
  return hops > 0 ? (_address: string, hop: number) => hop < hops : false;
}

/**
 * Builds the whole process: the three APIs, the operator API and operations, ready to inject or
 * listen. ROLE (docs/operations.md, "Roles") leaves out the job runner (`api`: jobs are queued only) or the
 * APIs (`worker`: jobs, /health, /ready and /metrics only).
 */
export async function buildApp(config: Config, opts: AppOptions = {}): Promise<FastifyInstance> {
  const runsJobs = config.ROLE !== 'api';
  const servesApis = config.ROLE !== 'worker';
  const app = Fastify({
    logger: opts.logger === false ? false : loggerOptions(config, opts.logStream),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    // Per-IP rate limits must not trust a client-supplied X-Forwarded-For unless a proxy sets it.
    trustProxy: trustProxyOption(config),
    forceCloseConnections: 'idle',
    // Errors Fastify answers before routing, in the format of the API whose path it is.
    frameworkErrors: createFrameworkErrors([
      { prefixes: ['/admin/v1/', '/api/v1/'], format: envelopeFormat },
      { prefixes: GOVERNANCE_PREFIXES, format: governanceErrorFormat },
      { prefixes: ['/v1/'], format: identityErrorFormat },
    ]),
  });
  // First, so that every route and hook registered after it is traced.
  if (opts.tracing) await app.register(opts.tracing.plugin);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  closeUnreadBodies(app);

  const clock = opts.clock ?? systemClock;
  const database = await (opts.database ??
    openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, loadDataDir: opts.loadDataDir }));
  let dataKeys: DataKeys;
  let storedBlobs: BlobStore | undefined;
  try {
    await applyMigrations(database);
    // Before anything is served: a missing or wrong master key refuses the start (docs/operations.md, "Encryption at rest").
    const settled = await settleDataKeys(config, database.db);
    dataKeys = settled.keys;
    if (settled.sealedRows > 0) app.log.info({ sealedRows: settled.sealedRows }, 'encryption at rest: sealed the secrets stored before it');
    storedBlobs = opts.blobs ?? openBlobStore(config, app.log);
    await sealBlobsStoredBefore(storedBlobs, dataKeys, app.log);
  } catch (err) {
    if (!opts.blobs) await storedBlobs?.close?.();
    await database.close();
    throw err;
  }
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: false, Connector: ReconnectLookupConnector })
    : undefined;
  redis?.on('error', (err) => app.log.warn({ err: err.message }, 'redis error'));
  const runner = createJobQueue({
    db: database.db,
    bookkeeping: database.bookkeeping,
    clock,
    logger: app.log,
    pollIntervalMs: config.JOBS_POLL_INTERVAL_MS,
    lanes: {
      identity: { concurrency: config.JOBS_IDENTITY_CONCURRENCY },
      deliveries: {
        concurrency: config.JOBS_DELIVERY_CONCURRENCY,
        perKeyLimit: config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
        prefetch: config.JOBS_DELIVERY_CONCURRENCY,
      },
      housekeeping: { concurrency: config.JOBS_HOUSEKEEPING_CONCURRENCY },
    },
    listen: jobListener(database, app.log),
    tracing: opts.tracing?.jobs,
    // Read at each failed claim, so after `meter` is decorated below (claims start once the app is ready).
    meter: { jobClaimFailed: (lane) => app.meter.jobClaimFailed(lane) },
  });
  const jobs = runsJobs ? runner : enqueueOnly(runner);
  // Only the APIs check keys.
  const keyCache = servesApis ? await startKeyCache(database, app.log) : undefined;
  const keyUse = servesApis ? startKeyUseRecorder(database, clock, app.log) : undefined;

  app.decorate('config', config);
  app.decorate('clock', clock);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('jobs', jobs);
  // Face inference threads start with the job runner and load their models in the background (/ready does not wait).
  // An API-only instance runs no pipeline: it has neither pool.
  app.decorate(
    'faces',
    runsJobs && config.FACE_CHECKS === 'on'
      ? createFacePool({
          workers: config.FACE_WORKERS,
          timeoutMs: config.FACE_TIMEOUT_MS,
          maxSide: config.FACE_MAX_SIDE,
          nice: config.FACE_WORKER_NICE,
        })
      : null,
  );
  app.decorate(
    'documents',
    runsJobs && config.DOCUMENT_READING === 'on' ? createDocumentReader({ deadlineMs: config.DOCUMENT_READ_TIMEOUT_MS }) : null,
  );
  app.decorate('dataKeys', dataKeys);
  app.decorate('blobs', sealedBlobStore(storedBlobs, dataKeys));
  app.decorate('redis', redis);
  app.decorate('authBrake', createAuthBrake({ limit: config.AUTH_FAILURE_LIMIT_PER_MINUTE, clock, redis, log: app.log }));
  const facePool = app.faces;
  // Before the APIs register: the request timing hook must reach every scope.
  const metrics = config.METRICS_TOKEN
    ? createMetrics({
        db: database.db,
        clock,
        logger: app.log,
        pools: database.pool && database.bookkeepingPool ? { main: database.pool, bookkeeping: database.bookkeepingPool } : {},
        pingDatabase: () => database.ping(),
        redisStatus: redis ? () => redis.status : undefined,
        faces: facePool ? () => ({ running: facePool.running, waiting: facePool.waiting }) : undefined,
      })
    : undefined;
  if (metrics) metricsRoutes(app, metrics, config.METRICS_TOKEN!);
  app.decorate('meter', metrics?.meter ?? silentMeter);
  const { webhooks, apis } = await composeServices(app, { servesApis, webhooks: opts.webhooks, witnessCa: opts.witnesses?.ca });
  app.decorate('webhooks', webhooks);

  await securityHeaders(app);
  if (servesApis) await app.register(openApiDocs);
  // The deployment's housekeeping, each one job row that one instance at a time runs (src/jobs/periodic.ts).
  if (runsJobs) {
    const batch = opts.retentionBatch ?? 500;
    await app.register(idempotencyKeyPurge);
    await app.register(finishedJobPurge, { retentionMs: config.JOBS_RETENTION_HOURS * 60 * 60 * 1000 });
    await app.register(deliveryLogRetention, { retentionDays: config.WEBHOOK_LOG_RETENTION_DAYS, batch });
    await app.register(identityRetention, { batch });
  }

  await app.register(healthRoutes);
  if (apis) {
    // The APIs, each in its own scope with its own auth, rate limits and error format.
    await app.register(homeRoute);
    await app.register(adminApi, { prefix: '/admin/v1', services: apis });
    await app.register(ticketingApi, { prefix: '/api/v1', ticketing: apis.ticketing });
    await app.register(identityApi, { prefix: '/v1', identity: apis.identity });
    await app.register(governanceApi, { governance: apis.governance });
    await app.register(webApp);
  } else {
    workerOnly(app);
  }

  app.addHook('onReady', async () => {
    if (opts.startJobs !== false) {
      jobs.start();
      app.faces?.start();
      app.documents?.start();
    }
  });
  app.addHook('preClose', async () => {
    await jobs.stop(config.SHUTDOWN_GRACE_MS);
  });
  app.addHook('onClose', async () => {
    await app.faces?.close();
    await app.documents?.close();
    await app.blobs.close?.();
    // Not quit(): with Redis gone it waits behind the offline queue; nothing pending is worth keeping.
    redis?.disconnect();
    await keyCache?.close();
    await keyUse?.close();
    webhooks.connections.close();
    await database.close();
    cancelReconnectLookups();
  });
  return app;
}
