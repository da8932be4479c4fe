import { z } from 'zod';

const boolean = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const positiveInt = z.coerce.number().int().positive();

const delayList = z
  .string()
  .regex(/^\s*\d+\s*(,\s*\d+\s*)*$/, 'a comma-separated list of milliseconds')
  .transform((v) => v.split(',').map((d) => Number(d.trim())));

const base64Seed = z
  .string()
  .refine((v) => Buffer.from(v, 'base64').length === 32, 'base64 of a 32-byte Ed25519 seed');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .refine(
      (v) => v === 'memory://' || /^postgres(ql)?:\/\//.test(v),
      'postgres://… or memory://',
    )
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  ADMIN_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'redis://…').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
  WEBHOOK_RETRY_DELAYS_MS: delayList.optional(),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: boolean.default(false),
  GOVERNANCE_SIGNING_KEY: base64Seed.optional(),
  TICKETING_RATE_LIMIT_PER_MINUTE: positiveInt.default(120),
  CAPTURE_RATE_LIMIT_PER_MINUTE: positiveInt.default(40),
  IDENTITY_RATE_LIMIT_PER_MINUTE: positiveInt.default(240),
  GOVERNANCE_RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
  /** Trust X-Forwarded-For from this many proxy hops (0: the socket address is the client). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  JOBS_POLL_INTERVAL_MS: positiveInt.default(500),
  /** Slots per lane (README, Operations): jobs of each kind running at once in this process. */
  JOBS_IDENTITY_CONCURRENCY: positiveInt.default(4),
  JOBS_DELIVERY_CONCURRENCY: positiveInt.default(32),
  JOBS_HOUSEKEEPING_CONCURRENCY: positiveInt.default(4),
  /** Deliveries to one endpoint in flight at once, across all processes. */
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: positiveInt.default(4),
  SHUTDOWN_GRACE_MS: positiveInt.default(10_000),
});

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

/** Parses the environment once; the message names the first bad variable on one line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`invalid configuration: ${name}: ${issue.message}`);
  }
  return parsed.data;
}

/** A config for tests and tools: defaults plus the given overrides, never the real environment. */
export function configFrom(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig(overrides as NodeJS.ProcessEnv);
}
