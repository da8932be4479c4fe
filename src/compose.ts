import type { FastifyInstance } from 'fastify';
import type { OperatorServices } from './admin/services.js';
import { assembleGovernance } from './governance/assembly.js';
import { governanceWork, type GovernanceWorkOptions } from './governance/plugin.js';
import { assembleIdentity } from './identity/assembly.js';
import type { IdentityDeps } from './identity/deps.js';
import { identityWork } from './identity/plugin.js';
import { createProfileService } from './profiles/service.js';
import { liveSigningKey } from './signing-keys/service.js';
import { createEventPageCache } from './ticketing/page-cache.js';
import { createTicketingService } from './ticketing/service.js';
import { createWebhookPlatform, type WebhookPlatformDeps } from './webhooks/platform.js';

export interface CompositionOptions {
  /** Whether this instance serves the APIs (ROLE all or api); otherwise it only runs their jobs. */
  servesApis: boolean;
  /** Webhook delivery: extra trusted CAs (tests' self-signed receivers) and the SSRF guard's DNS. */
  webhooks?: Pick<WebhookPlatformDeps, 'ca' | 'resolve'>;
  witnessCa?: GovernanceWorkOptions['witnessCa'];
}

/**
 * The composition root: every service of the process, built once from the configuration and
 * the process's mechanisms (database, clock, jobs, blobs, keys), here and nowhere else, then
 * handed to the plugins that serve it (src/app.ts). The work the APIs queue (the identity
 * pipeline, the witness submissions) is wired on every instance; the APIs' services only where
 * they are served.
 */
export async function composeServices(app: FastifyInstance, opts: CompositionOptions) {
  const { db, clock, dataKeys, blobs, jobs, config } = app;
  const profiles = createProfileService({ db, clock });
  const webhooks = createWebhookPlatform({
    db,
    dataKeys,
    bookkeeping: app.database.bookkeeping,
    clock,
    jobs,
    logger: app.log,
    config,
    meter: app.meter,
    profileExists: profiles.exists,
    ...opts.webhooks,
  });
  const identityDeps: IdentityDeps = { db, clock, dataKeys, blobs, webhooks };
  await identityWork(app, identityDeps);
  const { log, onSealed } = await governanceWork(app, { witnessCa: opts.witnessCa });
  if (!opts.servesApis) return { webhooks, apis: undefined };

  // Both keys exist from the first start, so the JWKS always carries them.
  await liveSigningKey(db, clock, dataKeys, 'attestation');
  const seed = config.GOVERNANCE_SIGNING_KEY ? Buffer.from(config.GOVERNANCE_SIGNING_KEY, 'base64') : undefined;
  const apis: OperatorServices = {
    profiles,
    ticketing: createTicketingService({ db, clock, webhooks, pages: createEventPageCache(config.EVENT_PAGE_CACHE_MB * 1024 * 1024) }),
    identity: assembleIdentity(identityDeps, {
      jobs,
      poseCheck: { yawTurn: config.FACE_YAW_TURN, yawFront: config.FACE_YAW_FRONT },
      issuer: `${config.PUBLIC_URL}/v1`,
    }),
    governance: assembleGovernance({
      db,
      clock,
      signingKey: await liveSigningKey(db, clock, dataKeys, 'governance', seed),
      meter: app.meter,
      onSealed,
      log,
      profiles,
    }),
  };
  return { webhooks, apis };
}
