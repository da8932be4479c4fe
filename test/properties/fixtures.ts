import type { TestContext } from '../helpers/app.js';
import { addKey, createTenant } from '../helpers/tenants.js';
import { goodDecision, governedTenant } from '../helpers/governance.js';
import { api, captureAll, identityTenant, settle } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';
import { ALL_SCOPES, draftEvent, order, organizer, ticketType } from '../helpers/ticketing.js';

/** Optional known-good parts of one operation's request, where the document alone cannot give them. */
export interface Seed {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

export interface Fixtures {
  ticketingKey: string;
  identityKey: string;
  reviewerKey: string;
  handoffToken: string;
  /** Capture operations that end their link (a declined consent) use a link of their own, so the others keep theirs. */
  ownHandoffToken: Record<string, string>;
  governanceKey: string;
  /** Path parameters by name, whatever the route (`eventId`, `orderId`, `execution_id`). */
  byParam: Record<string, string>;
  /** A `{id}` by the path segment before it (`profiles`, `verifications`, `review`, …). */
  byResource: Record<string, string>;
  /** Known-good bodies, params and queries by operationId; operations without one get a body sampled from their schema. */
  seeds: Record<string, Seed>;
}

/**
 * One of each record the routes act on. The credentials the suite sends are never the targets
 * of its writes: profile changes, key revocations, handoff reissues and erasures hit records of
 * their own, so the suite keeps getting past authentication whatever its random requests do.
 */
export async function createFixtures(ctx: TestContext): Promise<Fixtures> {
  const org = await organizer(ctx, { scopes: ALL_SCOPES, plan: 'ENTERPRISE' });
  const draft = await draftEvent(org);
  const live = await draftEvent(org);
  // Published and cancelled by the operator's actions, away from the events the other routes read.
  const doomed = await draftEvent(org);
  const type = await ticketType(ctx, live.id);
  await ctx.admin('POST', `/events/${live.id}/publish`);
  const paid = await order(ctx, live.id, [{ ticketTypeId: type.id, quantity: 2 }]);
  const tickets = await org.call('GET', `/events/${live.id}/tickets`);
  const ticketId = String(tickets.json().data?.items?.[0]?.id ?? 'unknown-ticket');

  // Targets of the operator's writes: a profile and a key nobody else uses.
  const spare = await createTenant(ctx, { service: 'ticketing', scopes: ['events:read'], plan: 'PRO' });
  const spareKey = await addKey(ctx, spare.profileId, { service: 'ticketing', scopes: ['events:read'] });
  const endpoint = await ctx.admin('POST', `/profiles/${spare.profileId}/webhook-endpoints`, { url: 'https://127.0.0.1:9/hooks' });
  await ctx.admin('POST', `/webhook-endpoints/${endpoint.data.id}/test`);
  const deliveries = await ctx.admin('GET', `/webhook-deliveries?endpointId=${endpoint.data.id}`);
  const deliveryId = String(deliveries.data?.items?.[0]?.id ?? '00000000-0000-4000-8000-000000000001');

  const identity = await identityTenant(ctx);
  const a = api(ctx);
  const device = await a.createVerification(identity.backend);
  const declining = await a.createVerification(identity.backend);
  const target = await a.createVerification(identity.backend);
  const document = png(640, 480, { seed: 4242 });
  const approved = await captureAll(ctx, identity.backend, { document });
  await settle(ctx, identity.backend, approved.id);
  const reused = await captureAll(ctx, identity.backend, { document });
  await settle(ctx, identity.backend, reused.id);

  const governance = await governedTenant(ctx);
  const spareDelegation = await ctx.admin('POST', '/governance/delegations', {
    profileId: governance.profileId,
    agentId: 'agent-7',
    grantedBy: 'cfo@example.com',
    expiresAt: new Date(ctx.clock.now().getTime() + 24 * 3600_000).toISOString(),
  });
  const decision = await ctx.app.inject({
    method: 'POST',
    url: '/v1/governance/decisions',
    headers: { authorization: `Bearer ${governance.key}` },
    payload: goodDecision(ctx),
  });
  if (decision.statusCode >= 300) throw new Error(`decision fixture answered ${decision.statusCode}: ${decision.body}`);
  const record = decision.json();

  const inADay = new Date(ctx.clock.now().getTime() + 24 * 3600_000).toISOString();
  const seeds: Record<string, Seed> = {
    updateEvent: { params: { eventId: draft.id }, body: { name: 'Renamed', description: 'Still by the water' } },
    createEvent: {
      body: {
        name: 'Harbour Nights',
        description: 'Live',
        address: '1 Dock Road',
        lat: 53.55,
        lng: 9.99,
        categories: ['music'],
        placeId: org.venueId,
        eventStartsAt: '2026-12-31T20:00:00.000Z',
      },
    },
    publishEvent: { params: { eventId: doomed.id } },
    cancelEvent: { params: { eventId: doomed.id } },
    changeEventStatus: { params: { eventId: doomed.id }, body: { status: 'ACTIVE' } },
    updateProfile: { body: { name: 'Renamed' } },
    createVenue: { body: { name: 'Hall', address: '2 Dock Road', city: 'Hamburg', lat: 53.5, lng: 9.9, timezone: 'Europe/Berlin' } },
    createApiKey: { body: { service: 'ticketing', profileId: spare.profileId, scopes: ['events:read'] } },
    listApiKeys: { query: { profileId: spare.profileId } },
    createGovernanceAgent: {
      body: {
        profileId: governance.profileId,
        agentId: 'agent-9',
        mandate: ['payments.*'],
        baseline: { fingerprint: 'fp-9', maxDrift: 0.1 },
      },
    },
    createGovernanceDelegation: {
      body: { profileId: governance.profileId, agentId: 'agent-7', grantedBy: 'cfo@example.com', expiresAt: inADay },
    },
    createWebhookEndpoint: { body: { url: 'https://127.0.0.1:9/other', events: ['order.paid'] } },
    createTicketType: { body: { name: 'Balcony', kind: 'STANDARD', price: '12.50', quantity: 10 } },
    createOrder: {
      body: {
        items: [{ ticketTypeId: type.id, quantity: 1 }],
        buyer: { name: 'Ada Lovelace', email: 'ada@example.com' },
        status: 'PENDING',
      },
    },
    scanTicket: { body: { ticketId } },
    createVerification: { body: { webhook_url: 'https://127.0.0.1:9/hooks', reference: 'order-42' } },
    reviewVerification: { body: { decision: 'approve', note: 'Document and selfie checked by hand, all consistent' } },
    createAttestation: { body: { claim: 'identity_verified' } },
    createGovernanceDecision: { body: goodDecision(ctx) },
    replayGovernanceDecision: { body: { record } },
    admitGovernanceRecord: { body: { record } },
    verifyGovernanceRecord: { body: { record } },
    challengeBypass: { body: { kind: 'modified_payload', record } },
    runProofScenario: { body: { condition: 'A' } },
    getProfileTransparencyLogRecord: { params: { id: governance.profileId, seq: '1' }, query: { tree_size: '1' } },
    getGovernanceInclusionProof: { query: { seq: '1', tree_size: '1' } },
    getGovernanceConsistencyProof: { query: { from: '1', to: '1' } },
  };

  return {
    ticketingKey: org.key,
    identityKey: identity.backend,
    reviewerKey: identity.reviewer,
    handoffToken: device.handoff_token,
    ownHandoffToken: { declineCaptureConsent: declining.handoff_token },
    governanceKey: governance.key,
    byParam: { eventId: live.id, orderId: paid.id, execution_id: record.execution_id },
    byResource: {
      profiles: spare.profileId,
      'api-keys': spareKey.keyId,
      'webhook-endpoints': endpoint.data.id,
      'webhook-deliveries': deliveryId,
      delegations: spareDelegation.data.id,
      verifications: target.id,
      review: reused.id,
      attestations: approved.id,
    },
    seeds,
  };
}
