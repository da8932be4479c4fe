import { z } from 'zod';
import { COSIGNATURE_ED25519, parseNoteKey, type NoteKey } from './lib/signed-note.js';

const boolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().nonnegative();

const delayList = z
  .string()
  .regex(/^\s*\d+\s*(,\s*\d+\s*)*$/, 'a comma-separated list of milliseconds')
  .transform((v) => v.split(',').map((d) => Number(d.trim())));

const base64Key = z.string().refine((v) => Buffer.from(v, 'base64').length === 32, 'base64 of 32 random bytes (openssl rand -base64 32)');

const base64Seed = z.string().refine((v) => Buffer.from(v, 'base64').length === 32, 'base64 of a 32-byte Ed25519 seed');

/** An http(s) origin with an optional path prefix; no query, fragment or credentials. Kept without a trailing slash. */
const publicUrl = z.string().transform((v, ctx) => {
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'an absolute http(s) URL such as https://id.example.com' });
    return z.NEVER;
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password || v.includes('#') || v.includes('?')) {
    ctx.addIssue({ code: 'custom', message: 'an http(s) URL without query, fragment or credentials' });
    return z.NEVER;
  }
  return url.toString().replace(/\/+$/, '');
});

/** A witness of the transparency log: its cosignature key and the submission prefix its add-checkpoint is under. */
export interface LogWitness extends NoteKey {
  /** The verifier key as configured: `<name>+<key hash>+<base64(0x04 ‖ key)>`. */
  verifierKey: string;
  url: string;
}

/**
 * LOG_WITNESSES (docs/governance.md, "Witnesses"): comma-separated `<name>+<hex key hash>+<base64 key>=<https URL>`,
 * a C2SP tlog-cosignature Ed25519 verifier key and the witness's submission prefix.
 */
const logWitnesses = z.string().transform((v, ctx) => {
  const witnesses: LogWitness[] = [];
  for (const [i, entry] of v
    .split(',')
    .map((e) => e.trim())
    .entries()) {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message: `witness ${i + 1} (${JSON.stringify(entry.slice(0, 80))}): ${message}` });
      return z.NEVER;
    };
    // The base64 of a 33-byte key has no padding, so the first '=' before http(s):// ends it.
    const match = /^([^=\s]+)=(https?:\/\/\S+)$/.exec(entry);
    if (!match) return fail('expected <name>+<hex key hash>+<base64 key>=<https URL>');
    let key: NoteKey;
    try {
      key = parseNoteKey(match[1]!, COSIGNATURE_ED25519);
    } catch (err) {
      return fail((err as Error).message);
    }
    let url: URL;
    try {
      url = new URL(match[2]!);
    } catch {
      return fail('the URL is not a URL');
    }
    if (url.protocol !== 'https:') return fail('the URL must be https:// (C2SP tlog-witness over TLS)');
    if (url.search || url.hash || url.username || url.password) return fail('the URL may not hold a query, fragment or credentials');
    if (witnesses.some((w) => w.name === key.name)) return fail(`the name ${key.name} is given twice`);
    witnesses.push({ ...key, verifierKey: match[1]!, url: url.toString().replace(/\/+$/, '') });
  }
  return witnesses;
});

const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /**
     * Loopback by default, as Fastify's own listen is: a checkout started with `npm start` is
     * reachable from this machine only, its operator API included. The image and
     * docker-compose.yml set 0.0.0.0 themselves (docs/configuration.md).
     */
    HOST: z.string().min(1).default('127.0.0.1'),
    /** Where browsers reach this server: the base of the capture page links (`capture_url`). Default http://localhost:<PORT>. */
    PUBLIC_URL: publicUrl.optional(),
    DATABASE_URL: z
      .string()
      .refine((v) => v === 'memory://' || /^postgres(ql)?:\/\//.test(v), 'postgres://… or memory://')
      .optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    /** The master key that encrypts secrets and images at rest (docs/operations.md, "Encryption at rest"); unset → DATA_KEY_FILE. Every instance needs the same. */
    DATA_KEY: base64Key.optional(),
    /** Where the master key lives when DATA_KEY is unset (default DATA_DIR/data.key, created 0600 on the first start). */
    DATA_KEY_FILE: z.string().min(1).optional(),
    /** A former master key, read but never written with, while `rotate-data-key` moves the data to DATA_KEY. */
    DATA_KEY_PREVIOUS: base64Key.optional(),
    DATA_KEY_PREVIOUS_FILE: z.string().min(1).optional(),
    /** What this process does (docs/operations.md, "Roles"): `api` serves HTTP and queues jobs, `worker` runs them; `all` both. */
    ROLE: z.enum(['all', 'api', 'worker']).default('all'),
    ADMIN_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
    /** Turns on traces over OTLP/HTTP to this collector (docs/operations.md, "Traces"); the other OTEL_* variables are read by the SDK. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z
      .string()
      .regex(/^https?:\/\/[^\s?#]+$/, 'an http(s) URL such as http://otel-collector:4318')
      .optional(),
    /** Continue a caller's trace from its traceparent/tracestate/baggage headers; off, every request starts its own trace (docs/operations.md, "Traces"). */
    OTEL_TRUST_INCOMING_CONTEXT: boolean.default(false),
    /** Turns on GET /metrics, read with this bearer token (docs/operations.md, "Metrics"); unset → 404. */
    METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'redis://…')
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
    WEBHOOK_RETRY_DELAYS_MS: delayList.optional(),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: boolean.default(false),
    /** Days a delivery attempt (with its excerpt of the receiver's answer) is kept in the delivery log (docs/operations.md, "Retention"). */
    WEBHOOK_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    GOVERNANCE_SIGNING_KEY: base64Seed.optional(),
    /** Witnesses each new transparency-log checkpoint is sent to for their cosignatures (docs/governance.md, "Witnesses"); none by default. */
    LOG_WITNESSES: logWitnesses.default([]),
    TICKETING_RATE_LIMIT_PER_MINUTE: positiveInt.default(120),
    /** Event pages kept per process, in MiB of bodies (0: none); a kept page is checked against the database before it is sent. */
    EVENT_PAGE_CACHE_MB: nonNegativeInt.default(16),
    CAPTURE_RATE_LIMIT_PER_MINUTE: positiveInt.default(40),
    IDENTITY_RATE_LIMIT_PER_MINUTE: positiveInt.default(240),
    /** Per governance key (per client IP on its public routes), across all governance paths and, with REDIS_URL, all instances. */
    GOVERNANCE_RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
    /** Per client IP over /admin/v1, counted before the operator token is checked. */
    ADMIN_RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
    /** Failed authentications per client IP and minute, over every API, before it answers 429 (docs/security.md, Security). */
    AUTH_FAILURE_LIMIT_PER_MINUTE: positiveInt.default(30),
    /** Trust X-Forwarded-For from this many proxy hops (0: the socket address is the client). */
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    JOBS_POLL_INTERVAL_MS: positiveInt.default(500),
    /** Slots per lane (docs/operations.md, Operations): jobs of each kind running at once in this process. */
    JOBS_IDENTITY_CONCURRENCY: nonNegativeInt.default(4),
    JOBS_DELIVERY_CONCURRENCY: nonNegativeInt.default(32),
    JOBS_HOUSEKEEPING_CONCURRENCY: nonNegativeInt.default(4),
    /** Hours a finished (done or failed) job's row is kept before the hourly purge deletes it. */
    JOBS_RETENTION_HOURS: positiveInt.default(168),
    /** Deliveries to one endpoint in flight at once, across all processes. */
    WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: positiveInt.default(4),
    SHUTDOWN_GRACE_MS: positiveInt.default(10_000),
    /** Face checks in the identity pipeline (docs/faces.md, "Face checks"); `off` keeps only the byte rules and loads no model. */
    FACE_CHECKS: z.enum(['on', 'off']).default('on'),
    /** Reading the document's machine-readable zone in the pipeline (docs/document-reading.md, "Document reading"); `off` keeps the typed-zone rules only. */
    DOCUMENT_READING: z.enum(['on', 'off']).default('on'),
    /** Worker threads running face inference, each with its own copy of the models (~150 MB). */
    FACE_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
    /** Linux nice value of the face workers: above 0 the API's event loop wins the CPU when both want it. */
    FACE_WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
    /** One verification's face analysis (waiting for the models included): past it the worker is ended and the verification parked (docs/identity.md, "Bounded identity work"). */
    FACE_TIMEOUT_MS: positiveInt.default(45_000),
    /** One verification's document reading (engines starting included): past it the worker is ended and the verification parked. */
    DOCUMENT_READ_TIMEOUT_MS: positiveInt.default(12_000),
    /** Longest image side the models see; larger uploads are downscaled first. */
    FACE_MAX_SIDE: z.coerce.number().int().min(256).max(4096).default(640),
    /** Document↔selfie similarity: below LOW declined face_mismatch, below HIGH manual_review face_match_uncertain. */
    FACE_MATCH_LOW: z.coerce.number().min(0).max(1).default(0.3),
    FACE_MATCH_HIGH: z.coerce.number().min(0).max(1).default(0.4),
    /** Radians of yaw: a left/right step turns at least FACE_YAW_TURN, a front step at most FACE_YAW_FRONT. */
    FACE_YAW_TURN: z.coerce.number().min(0).max(1.5).default(0.15),
    FACE_YAW_FRONT: z.coerce.number().min(0).max(1.5).default(0.25),
    /** Where uploaded files live (docs/operations.md, "Object storage"): `file` under DATA_DIR/blobs, or an S3 bucket. */
    BLOB_STORE: z.enum(['file', 's3']).default('file'),
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens')
      .optional(),
    S3_REGION: z
      .string()
      .regex(/^[a-z0-9-]{2,40}$/, 'a region name such as eu-central-1')
      .optional(),
    /** An S3-compatible service (MinIO, Ceph, R2…); unset → AWS S3 of S3_REGION. */
    S3_ENDPOINT: z
      .string()
      .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'an http(s) URL such as http://minio:9000')
      .optional(),
    /** Path-style addressing (host/bucket/key), which most self-hosted S3-compatible services need. */
    S3_FORCE_PATH_STYLE: boolean.default(false),
    /** Uploads sending to the bucket at once per process (each holds up to ~15 MB of parts); more wait their turn. */
    S3_UPLOADS_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(2),
  })
  .refine((c) => c.FACE_MATCH_LOW <= c.FACE_MATCH_HIGH, { path: ['FACE_MATCH_LOW'], message: 'must not exceed FACE_MATCH_HIGH' })
  // The embedded database belongs to one process, and the roles exist to run several (docs/operations.md, "Roles").
  .refine((c) => c.ROLE === 'all' || /^postgres(ql)?:\/\//.test(c.DATABASE_URL ?? ''), {
    path: ['ROLE'],
    message: 'api and worker need PostgreSQL (DATABASE_URL=postgres://…): the embedded database serves one process, so run ROLE=all there',
  })
  .superRefine((c, ctx) => {
    if (c.BLOB_STORE !== 's3') return;
    if (!c.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'required when BLOB_STORE=s3' });
    if (!c.S3_REGION) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_REGION'],
        message: "required when BLOB_STORE=s3 (the bucket's region; S3-compatible services usually accept us-east-1)",
      });
    }
  });

export type Config = Omit<z.infer<typeof envSchema>, 'PUBLIC_URL'> & { PUBLIC_URL: string };

export class ConfigError extends Error {}

/** Parses the environment once; the message names the first bad variable on one line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`invalid configuration: ${name}: ${issue.message}`);
  }
  return { ...parsed.data, PUBLIC_URL: parsed.data.PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}` };
}

/** A config for tests and tools: defaults plus the given overrides, never the real environment. */
export function configFrom(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig(overrides as NodeJS.ProcessEnv);
}
