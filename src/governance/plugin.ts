import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { useKeyAuth } from '../auth/key-auth.js';
import { governanceIdempotency } from './idempotency.js';
import { useIdempotency } from '../idempotency/hooks.js';
import { useRateLimit } from '../plugins/rate-limit.js';
import type { GovernanceServices } from './assembly.js';
import { StrictJsonError, parseStrictJson } from './strict-json.js';
import { governanceErrors as errors, useGovernanceErrors } from './errors.js';
import { carrierRoutes } from './routes/carrier.js';
import { challengeRoutes } from './routes/challenge.js';
import { cryptoRoutes } from './routes/crypto.js';
import { governanceRoutes } from './routes/governance.js';
import { proofRoutes } from './routes/proof.js';
import { openTransparencyLog, type TransparencyLog } from './transparency-log.js';
import { createWitnessClient } from './witness/client.js';
import { createWitnessSubmissions } from './witness/submissions.js';

/** The governance API's path scopes and their routes; the rest of /v1 is identity's. */
const PATH_SCOPES = [
  ['/v1/governance', governanceRoutes],
  ['/v1/proof', proofRoutes],
  ['/v1/crypto', cryptoRoutes],
  ['/v1/challenge', challengeRoutes],
  ['/v1/carrier', carrierRoutes],
] as const;

/** The path prefixes the governance API serves (for answers given before routing, src/app.ts). */
export const GOVERNANCE_PREFIXES = PATH_SCOPES.map(([prefix]) => `${prefix}/`);

/** How long a witness has to answer one add-checkpoint. */
const WITNESS_TIMEOUT_MS = 10_000;

export interface GovernanceWorkOptions {
  /** Extra trusted CAs for the witnesses' HTTPS (tests' self-signed witnesses); the system store otherwise. */
  witnessCa?: string | Buffer | (string | Buffer)[];
}

/**
 * The governance work every instance that runs jobs needs, and the API's instances too (they
 * queue it): the transparency log and its witness submissions (docs/governance.md, "Witnesses"), their job
 * handler registered (an API-only instance's queue keeps none) and the submissions a crash may
 * have left unqueued queued again. `onSealed` queues a new checkpoint for the witnesses.
 */
export async function governanceWork(
  app: FastifyInstance,
  opts: GovernanceWorkOptions = {},
): Promise<{ log: TransparencyLog; onSealed: ((profileId: string) => Promise<void>) | undefined }> {
  const witnesses = app.config.LOG_WITNESSES;
  // The log's checkpoints are signed with keys of their own purpose, never the records' key.
  const log = await openTransparencyLog({
    db: app.db,
    clock: app.clock,
    dataKeys: app.dataKeys,
    publicUrl: app.config.PUBLIC_URL,
    witnesses: witnesses.map((w) => w.name),
  });
  const client = createWitnessClient({ timeoutMs: WITNESS_TIMEOUT_MS, ca: opts.witnessCa });
  app.addHook('onClose', async () => client.close());
  const submissions = createWitnessSubmissions({ db: app.db, clock: app.clock, jobs: app.jobs, log, witnesses, client, logger: app.log });
  submissions.register();
  if (witnesses.length === 0) return { log, onSealed: undefined };
  await submissions.catchUp();
  return {
    log,
    // After the batch committed and before it is answered, so an answered decision's checkpoint
    // is queued for its witnesses. The records stand whatever happens here: a queueing that fails
    // (or a crash in between) is made up for by the next seal or the next start (the catch-up above).
    onSealed: (profileId) =>
      submissions.checkpointGrew(profileId).catch((err: unknown) => {
        app.log.warn({ err, profileId }, 'could not queue the witness submissions of a new checkpoint');
      }),
  };
}

/**
 * The Governance Evidence Service: five encapsulated scopes (/v1/governance, /v1/proof,
 * /v1/crypto, /v1/challenge, /v1/carrier) sharing one strict JSON parser, one error format,
 * one auth hook and one rate limit. It never touches the '/v1' scope identity owns.
 */
export const governanceApi: FastifyPluginAsync<{ governance: GovernanceServices }> = async (app, { governance }) => {
  const { service, boundary, log } = governance;
  useGovernanceErrors(app);
  useIdempotency(app, governanceIdempotency);
  // Signed values must read the same in every parser: refuse duplicate keys, lone surrogates,
  // unsafe integers and non-finite numbers on the raw text.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseStrictJson(body as string));
    } catch (err) {
      const message =
        err instanceof StrictJsonError ? `The JSON body cannot be canonicalized safely: ${err.message}` : 'The body is not valid JSON';
      done(errors.unreadableBody(message), undefined);
    }
  });

  app.decorateRequest('governancePrincipal', null);
  // Only routes with a governanceScope take a key; the scope is checked with it, before the rate limit.
  useKeyAuth(app, {
    service: 'governance',
    principal: 'governancePrincipal',
    keyed: (req) => Boolean(req.routeOptions.config?.governanceScope),
    braked: () => errors.rateLimited(),
    unauthenticated: () => errors.unauthorized(),
    forbidden: (principal, req) => {
      const required = req.routeOptions.config.governanceScope!;
      return principal.scopes.includes(required) ? undefined : errors.insufficientScope(required);
    },
  });

  await useRateLimit(app, {
    max: app.config.GOVERNANCE_RATE_LIMIT_PER_MINUTE,
    nameSpace: 'governance-rate-limit-',
    callerOf: (req) => (req.governancePrincipal ? `key:${req.governancePrincipal.keyHash}` : `ip:${req.ip}`),
    refusal: () => errors.rateLimited(),
    counts: 'after-auth',
  });

  for (const [prefix, routes] of PATH_SCOPES) await app.register(routes, { prefix, service, boundary, log });
};
