import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyUseRecorderOf } from '../../src/auth/key-usage.js';
import type { OperationExamples } from '../../src/docs/openapi-example-types.js';
import operationExamples from '../../src/docs/openapi-examples.json' with { type: 'json' };
import { ADMIN_TOKEN } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { multipart, passportMrz, type Part } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { compileSchemaValidator, shapeDifferences } from './openapi-support.js';

/**
 * The examples of the OpenAPI document are real answers: the scenario below calls every
 * operation once the way a partner would, with one organizer's data throughout (the same
 * profile, venue, event, order and verification in every call), and records each request body
 * and 2xx answer. The document's examples (src/docs/openapi-examples.json, generated from these
 * recordings) must validate against the document's schemas and have the shape of today's answers.
 *
 * A new route: add its call to the scenario, then run
 *   UPDATE_OPENAPI_EXAMPLES=1 npx vitest run test/docs/openapi-examples.test.ts
 * which rewrites src/docs/openapi-examples.json from the recordings.
 */
const EXAMPLES_FILE = fileURLToPath(new URL('../../src/docs/openapi-examples.json', import.meta.url));
const UPDATE = process.env.UPDATE_OPENAPI_EXAMPLES === '1';
const HOW_TO_ADD =
  'call it in the scenario of test/docs/openapi-examples.test.ts, then run UPDATE_OPENAPI_EXAMPLES=1 npx vitest run test/docs/openapi-examples.test.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
type Media = { schema?: unknown; example?: unknown };
type Operation = {
  operationId?: string;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
};
type Document = { paths: Record<string, Record<string, Operation>> };

interface Located {
  method: string;
  path: string;
  op: Operation;
}

function operationsOf(doc: Document): Map<string, Located> {
  const found = new Map<string, Located>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (METHODS.includes(method) && op.operationId) found.set(op.operationId, { method, path, op });
    }
  }
  return found;
}

/** The test receiver's address, written as the partner's own host in the recorded examples. */
const RECEIVER_HOST = 'hooks.example.test';

describe('the examples of the OpenAPI document', () => {
  const certificate = useCertificate();
  const receiver = useReceiver(certificate);
  const { ctx } = useTestApp(() => ({
    env: { GOVERNANCE_SIGNING_KEY: Buffer.alloc(32, 7).toString('base64'), WEBHOOK_TIMEOUT_MS: '2000' },
    webhooks: { ca: certificate.cert, resolve: async () => [{ address: '127.0.0.1', family: 4 }] },
  }));
  let doc: Document;
  let operations: Map<string, Located>;
  const recorded: OperationExamples = {};
  /** The recordings as src/docs/openapi-examples.json holds them. */
  let published: OperationExamples = {};

  /** Calls one operation by its operationId; records its request body and answer the first time it answers 2xx. */
  async function call(
    operationId: string,
    opts: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; form?: Part[]; token?: string | null } = {},
  ): Promise<any> {
    const located = operations.get(operationId);
    if (!located) throw new Error(`${operationId} is not in the document`);
    const url = located.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = opts.params?.[name];
      if (value === undefined) throw new Error(`${operationId}: no value for {${name}}`);
      return encodeURIComponent(value);
    });
    const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
    const inject: InjectOptions = { method: located.method.toUpperCase() as InjectOptions['method'], url, query: opts.query, headers };
    if (opts.form) {
      const form = multipart(opts.form);
      Object.assign(headers, form.headers);
      inject.payload = form.payload;
    } else if (opts.body !== undefined) {
      inject.payload = opts.body as InjectOptions['payload'];
    }
    const res = await ctx.app.inject(inject);
    if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`${operationId} answered ${res.statusCode}: ${res.body}`);
    // Images (the reviewer's image routes) have no JSON example to record.
    const answer = res.body && String(res.headers['content-type']).includes('json') ? res.json() : undefined;
    recorded[operationId] ??= {
      ...(opts.body !== undefined ? { request: structuredClone(opts.body) } : {}),
      responses: { [String(res.statusCode)]: answer },
    };
    return answer;
  }

  /** The whole scenario: an organizer on every service, from its profile to an erased verification. */
  async function scenario() {
    const admin = ADMIN_TOKEN;
    const at = (iso: string) => new Date(iso).toISOString();
    const minutes = (n: number) => ctx.clock.advance(n * 60_000);

    // The operator sets the organizer up.
    const profile = (await call('createProfile', { token: admin, body: { name: 'Harbour Live Events', plan: 'ENTERPRISE' } })).data;
    await call('getProfile', { token: admin, params: { id: profile.id } });
    await call('updateProfile', { token: admin, params: { id: profile.id }, body: { name: 'Harbour Live Events B.V.' } });
    const venue = (
      await call('createVenue', {
        token: admin,
        params: { id: profile.id },
        body: {
          name: 'Harbour Hall',
          address: 'Wilhelminakade 123',
          city: 'Rotterdam',
          lat: 51.9067,
          lng: 4.4872,
          timezone: 'Europe/Amsterdam',
        },
      })
    ).data;
    // The operator corrects the venue's coordinates, then lists the profile's venues.
    await call('updateVenue', { token: admin, params: { id: profile.id, venueId: venue.id }, body: { lat: 51.9069, lng: 4.4875 } });
    await call('listVenues', { token: admin, params: { id: profile.id } });
    // A minute between the keys: the key list (by creation time) then has the same order every run.
    const ticketingKey = (
      await call('createApiKey', {
        token: admin,
        body: {
          service: 'ticketing',
          profileId: profile.id,
          scopes: ['events:read', 'events:write', 'orders:read', 'tickets:read', 'attendees:read'],
        },
      })
    ).data.key as string;
    minutes(1);
    const backendKey = (await call('createApiKey', { token: admin, body: { service: 'identity', profileId: profile.id, role: 'backend' } }))
      .data.key as string;
    minutes(1);
    const reviewerKey = (
      await call('createApiKey', {
        token: admin,
        body: { service: 'identity', profileId: profile.id, role: 'reviewer', name: 'Dana at the front desk', holder: 'Dana Adeyemi' },
      })
    ).data.key as string;
    minutes(1);
    const governanceKey = (
      await call('createApiKey', {
        token: admin,
        body: { service: 'governance', profileId: profile.id, scopes: ['governance:decide', 'governance:read'] },
      })
    ).data.key as string;
    const endpoint = (
      await call('createWebhookEndpoint', {
        token: admin,
        params: { id: profile.id },
        body: {
          url: `https://${RECEIVER_HOST}:${receiver.port}/ticketing`,
          events: ['event.published', 'order.paid', 'order.refunded', 'ticket.checked_in'],
        },
      })
    ).data;
    await call('listWebhookEndpoints', { token: admin, params: { id: profile.id } });

    // The organizer's systems create and change an event.
    minutes(20);
    const event = (
      await call('createEvent', {
        token: ticketingKey,
        body: {
          name: 'Jazz on the Quay',
          description: 'An evening of harbour-side jazz with the Maas River Quartet.',
          address: 'Wilhelminakade 123, Rotterdam',
          lat: 51.9067,
          lng: 4.4872,
          categories: ['music', 'jazz'],
          placeId: venue.id,
          eventStartsAt: at('2026-12-18T19:00:00.000Z'),
          eventEndsAt: at('2026-12-18T22:30:00.000Z'),
          timezone: 'Europe/Amsterdam',
          city: 'Rotterdam',
          email: 'tickets@harbour-live.example',
          website: 'https://harbour-live.example/jazz-on-the-quay',
        },
      })
    ).data;
    minutes(7);
    await call('updateEvent', {
      token: ticketingKey,
      params: { eventId: event.id },
      body: { description: 'An evening of harbour-side jazz with the Maas River Quartet and guests.' },
    });
    await call('getEvent', { token: ticketingKey, params: { eventId: event.id } });

    // The operator adds tickets and publishes; an order is placed, paid and scanned at the door.
    minutes(95);
    const ticketType = (
      await call('createTicketType', {
        token: admin,
        params: { eventId: event.id },
        body: { name: 'General admission', description: 'Standing, doors at 18:30', kind: 'STANDARD', price: '35.00', quantity: 400 },
      })
    ).data;
    await call('publishEvent', { token: admin, params: { eventId: event.id } });
    await call('listEvents', { token: ticketingKey, query: { status: 'ACTIVE' } });
    await call('listTicketTypes', { token: ticketingKey, params: { eventId: event.id } });
    const order = (
      await call('createOrder', {
        token: admin,
        params: { eventId: event.id },
        body: { items: [{ ticketTypeId: ticketType.id, quantity: 2 }], buyer: { name: 'Ada Lovelace', email: 'ada@example.com' } },
      })
    ).data;
    minutes(4);
    await call('payOrder', { token: admin, params: { orderId: order.id } });
    await call('getOrder', { token: ticketingKey, params: { orderId: order.id } });
    await call('listEventOrders', { token: ticketingKey, params: { eventId: event.id } });
    const tickets = (await call('listEventTickets', { token: ticketingKey, params: { eventId: event.id } })).data.items;
    ctx.clock.set('2026-12-18T18:41:27.000Z');
    await call('scanTicket', { token: admin, params: { eventId: event.id }, body: { ticketId: tickets[0].id } });
    await call('listEventCheckIns', { token: ticketingKey, params: { eventId: event.id } });
    const refunded = (
      await call('createOrder', {
        token: admin,
        params: { eventId: event.id },
        body: {
          items: [{ ticketTypeId: ticketType.id, quantity: 1 }],
          buyer: { name: 'Grace Hopper', email: 'grace@example.com' },
          status: 'CONFIRMED',
        },
      })
    ).data;
    minutes(12);
    await call('refundOrder', { token: admin, params: { orderId: refunded.id } });

    // Webhooks: the deliveries of those changes, after one delivery attempt each.
    minutes(1);
    await ctx.app.jobs.drain();
    const deliveries = (await call('listWebhookDeliveries', { token: admin, query: { endpointId: endpoint.id, limit: '2' } })).data.items;
    await call('getWebhookDelivery', { token: admin, params: { id: deliveries[0].id } });
    await call('redeliverWebhook', { token: admin, params: { id: deliveries[0].id } });
    await call('sendTestWebhook', { token: admin, params: { id: endpoint.id } });
    await call('rotateWebhookSecret', { token: admin, params: { id: endpoint.id } });
    await call('disableWebhookEndpoint', { token: admin, params: { id: endpoint.id } });
    await call('enableWebhookEndpoint', { token: admin, params: { id: endpoint.id } });

    // Identity: a ticket holder proves their age; the pipeline fails once, a reviewer decides.
    minutes(30);
    const verification = await call('createVerification', {
      token: backendKey,
      body: {
        webhook_url: `https://${RECEIVER_HOST}:${receiver.port}/identity`,
        reference: `order-${order.id}`,
        return_url: `https://${RECEIVER_HOST}:${receiver.port}/orders/${order.id}/verified`,
      },
    });
    // A walk-in at the box office: the operator starts one from the console, with no backend.
    // A minute later, so the profile's verification list (newest first) has one order every run.
    minutes(1);
    const walkIn = await call('startVerification', {
      token: admin,
      params: { id: profile.id },
      body: { reference: 'box-office walk-in 7' },
    });
    // The person lost the link: the operator issues a new one from the verification's page.
    await call('issueCaptureLink', { token: admin, params: { id: profile.id, verificationId: walkIn.data.id } });
    const handoff = (await call('reissueHandoffToken', { token: backendKey, params: { id: verification.id } })).handoff_token as string;
    // A person who says no on the capture page's intro: the link ends and nothing is sent.
    // A minute after the walk-in, so the two never tie on created_at (the list would then order them by a random id).
    minutes(1);
    const shy = await call('createVerification', {
      token: backendKey,
      body: { webhook_url: `https://${RECEIVER_HOST}:${receiver.port}/identity`, reference: 'order-declined-consent' },
    });
    await call('declineCaptureConsent', { token: shy.handoff_token });
    // The walk-in's photo was declined as too small (set here as the pipeline would decide it):
    // the operator starts the capture again with a new link.
    await ctx.app.db.execute(
      sql`update identity_verifications set status = 'declined', decision_reason = 'image_too_small', decided_at = now() where id = ${walkIn.data.id}`,
    );
    await call('restartCapture', { token: admin, params: { id: profile.id, verificationId: walkIn.data.id } });
    minutes(2);
    await call('captureStatus', { token: handoff });
    await call('uploadDocument', {
      token: handoff,
      form: [
        { name: 'file', filename: 'id-card-front.png', contentType: 'image/png', data: png(1024, 720, { seed: 7 }) },
        { name: 'back', filename: 'id-card-back.png', contentType: 'image/png', data: png(1024, 720, { seed: 8 }) },
        { name: 'mrz', value: passportMrz() },
      ],
    });
    const challenge = await call('getChallenge', { token: handoff });
    await call('failNextPipelineRun', { token: admin, params: { id: verification.id } });
    for (const { step } of challenge.steps as { step: number }[]) {
      await call('uploadSelfieFrame', {
        token: handoff,
        form: [
          { name: 'step', value: String(step) },
          { name: 'file', filename: `selfie-${step}.png`, contentType: 'image/png', data: png(640, 480, { seed: 100 + step }) },
        ],
      });
    }
    await ctx.app.jobs.drain();
    minutes(26);
    await call('claimReviewCase', { token: reviewerKey, params: { id: verification.id } });
    await call('listReviewQueue', { token: reviewerKey });
    await call('getReviewCase', { token: reviewerKey, params: { id: verification.id } });
    await call('releaseReviewCase', { token: reviewerKey, params: { id: verification.id } });
    await call('claimReviewCase', { token: reviewerKey, params: { id: verification.id } });
    await call('getReviewDocumentImage', { token: reviewerKey, params: { id: verification.id } });
    await call('getReviewDocumentBackImage', { token: reviewerKey, params: { id: verification.id } });
    await call('getReviewSelfieImage', { token: reviewerKey, params: { id: verification.id, step: '0' } });
    await call('reviewVerification', {
      token: reviewerKey,
      params: { id: verification.id },
      body: { decision: 'approve', note: 'Pipeline error on upload; document and selfie match, hologram checked by hand.' },
    });
    minutes(1);
    await call('getVerification', { token: backendKey, params: { id: verification.id } });
    // The operator looks the decided verification over: its page and its images (each view audited).
    const theCase = { id: profile.id, verificationId: verification.id };
    await call('getProfileVerification', { token: admin, params: theCase });
    await call('getVerificationDocumentImage', { token: admin, params: theCase });
    await call('getVerificationDocumentBackImage', { token: admin, params: theCase });
    await call('getVerificationSelfieImage', { token: admin, params: { ...theCase, step: '0' } });
    await call('listAttestationClaims');
    await call('createAttestation', { token: backendKey, params: { id: verification.id }, body: { claim: 'identity_verified' } });
    await call('identityJwks');
    minutes(45);
    await call('revokeHandoffToken', { token: backendKey, params: { id: verification.id } });
    await call('eraseVerification', { token: backendKey, params: { id: verification.id } });

    // Governance: the organizer's refund agent acts under a delegation; its record is admitted once.
    minutes(60);
    await call('createGovernanceAgent', {
      token: admin,
      body: {
        profileId: profile.id,
        agentId: 'refund-agent',
        mandate: ['payments.refund', 'reports.read'],
        baseline: { fingerprint: 'refund-agent-v3', maxDrift: 0.2 },
      },
    });
    const delegation = (
      await call('createGovernanceDelegation', {
        token: admin,
        body: {
          profileId: profile.id,
          agentId: 'refund-agent',
          grantedBy: 'finance@harbour-live.example',
          expiresAt: at('2026-12-31T23:00:00.000Z'),
        },
      })
    ).data;
    minutes(3);
    const record = await call('createGovernanceDecision', {
      token: governanceKey,
      body: {
        agent_id: 'refund-agent',
        action: 'payments.refund',
        authority_status: 'VALID',
        human_present: false,
        consequence_tier: 'LOW',
        timestamp: ctx.clock.now().toISOString(),
        behavior: { fingerprint: 'refund-agent-v3', drift: 0.04 },
      },
    });
    await call('replayGovernanceDecision', { token: governanceKey, body: { record } });
    await call('verifyGovernanceRecord', { body: { record } });
    await call('challengeBypass', { token: governanceKey, body: { kind: 'modified_payload', record } });
    ctx.clock.advance(1_850);
    await call('admitGovernanceRecord', { token: governanceKey, body: { record } });
    await call('getCarrier', { token: governanceKey, params: { execution_id: record.execution_id } });
    await call('getProofBoundaries');
    await call('runProofScenario', { token: governanceKey, body: { condition: 'A' } });
    await call('listGovernanceRecords', { token: governanceKey, query: { after_seq: '0', limit: '100' } });
    await call('getGovernanceLog', { token: governanceKey });
    await call('getGovernanceInclusionProof', { token: governanceKey, query: { seq: '1', tree_size: '2' } });
    await call('getGovernanceConsistencyProof', { token: governanceKey, query: { from: '1', to: '2' } });
    await call('listGovernanceKeys');
    await call('listGovernanceLogKeys');
    await call('listTransparencyLogKeys', { token: admin });
    await call('getProfileTransparencyLog', { token: admin, params: { id: profile.id } });
    await call('getProfileTransparencyLogRecord', { token: admin, params: { id: profile.id, seq: '1' }, query: { tree_size: '2' } });
    await call('revokeGovernanceDelegation', { token: admin, params: { id: delegation.id } });

    // The operator retires the event and rotates the ticketing key.
    minutes(240);
    await call('changeEventStatus', { token: admin, params: { eventId: event.id }, body: { status: 'INACTIVE' } });
    minutes(10);
    await call('cancelEvent', { token: admin, params: { eventId: event.id } });
    // Every key has been used by now; their last-used times are written off the request's path.
    await keyUseRecorderOf(ctx.app.db)!.settle();
    await call('listApiKeys', { token: admin, query: { profileId: profile.id } });
    await call('listProfiles', { token: admin });
    await call('listProfileVerifications', { token: admin, params: { id: profile.id } });
    await call('listProfileEvents', { token: admin, params: { id: profile.id } });
    await call('listProfileGovernance', { token: admin, params: { id: profile.id } });
    await call('getActivity', { token: admin });
    const keys = (await call('listApiKeys', { token: admin, query: { profileId: profile.id } })).data.items as {
      id: string;
      service: string;
    }[];
    await call('revokeApiKey', { token: admin, params: { id: keys.find((k) => k.service === 'ticketing')!.id } });

    await call('health');
    await call('ready');
  }

  beforeAll(async () => {
    doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    operations = operationsOf(doc);
    await scenario();
    published = sanitize(recorded, receiver.port);
    if (UPDATE) writeExamples(published);
  }, 120_000);

  /** The examples the checks read: the document's, or in update mode the ones just written. */
  const exampleOf = (id: string, located: Located) => {
    if (UPDATE) return published[id];
    const request = located.op.requestBody?.content?.['application/json']?.example;
    const responses = Object.fromEntries(
      Object.entries(located.op.responses ?? {})
        .filter(([status]) => /^2\d\d$/.test(status))
        .map(([status, r]) => [status, r.content?.['application/json']?.example]),
    );
    return { request, responses };
  };

  it('the scenario calls every operation of the document with a 2xx answer', () => {
    const missing = [...operations]
      .filter(([id]) => !recorded[id])
      .map(([id, { method, path }]) => `${method.toUpperCase()} ${path} (${id}): ${HOW_TO_ADD}`);
    expect(missing, 'operations the scenario never answered 2xx').toEqual([]);
  });

  it('every JSON request body and every recorded 2xx answer has its example in the document', () => {
    const missing: string[] = [];
    for (const [id, located] of operations) {
      const { method, path, op } = located;
      const example = exampleOf(id, located);
      if (op.requestBody?.content?.['application/json'] && example?.request === undefined)
        missing.push(`${method.toUpperCase()} ${path} (${id}): no request body example`);
      for (const status of Object.keys(recorded[id]?.responses ?? {})) {
        if (op.responses?.[status]?.content?.['application/json'] && example?.responses[status] === undefined) {
          missing.push(`${method.toUpperCase()} ${path} (${id}): no example of its ${status} answer`);
        }
      }
    }
    expect(missing, `operations lacking examples; to add them: ${HOW_TO_ADD}`).toEqual([]);
  });

  it('holds no examples of operations the document no longer has', () => {
    const stale = Object.keys(UPDATE ? published : operationExamples).filter((id) => !operations.has(id));
    expect(stale, `examples of removed operations; refresh them: ${HOW_TO_ADD}`).toEqual([]);
  });

  it('every example validates against the schema it illustrates', () => {
    const validate = compileSchemaValidator(doc);
    const invalid: string[] = [];
    for (const [id, located] of operations) {
      const { method, path, op } = located;
      const example = exampleOf(id, located);
      if (!example) continue;
      const body = op.requestBody?.content?.['application/json'];
      if (body?.schema && example.request !== undefined)
        invalid.push(...validate(body.schema, example.request).map((e) => `${id} request: ${e}`));
      for (const [status, answer] of Object.entries(example.responses)) {
        const schema = op.responses?.[status]?.content?.['application/json']?.schema;
        if (schema && answer !== undefined) invalid.push(...validate(schema, answer).map((e) => `${id} ${status}: ${e}`));
      }
      void method;
      void path;
    }
    expect(invalid).toEqual([]);
  });

  it('every example has the shape of the real answer to the same call today', () => {
    const drifted: string[] = [];
    for (const [id, located] of operations) {
      const real = recorded[id];
      const example = exampleOf(id, located);
      if (!real || !example) continue;
      if (real.request !== undefined && example.request !== undefined) {
        drifted.push(...shapeDifferences(example.request, real.request).map((d) => `${id} request: ${d}`));
      }
      for (const [status, answer] of Object.entries(real.responses)) {
        if (example.responses[status] === undefined) continue;
        drifted.push(...shapeDifferences(example.responses[status], answer).map((d) => `${id} ${status}: ${d}`));
      }
    }
    expect(drifted, `examples that no longer match the answers; refresh them: ${HOW_TO_ADD}`).toEqual([]);
  });
});

/** Fields whose values are credentials: the document shows placeholders of the same form. */
const CREDENTIALS = new Set(['key', 'secret', 'handoff_token']);

function credentialsIn(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => credentialsIn(v, found));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (CREDENTIALS.has(k) && typeof v === 'string') found.add(v);
      else credentialsIn(v, found);
    }
  }
  return found;
}

/**
 * The recordings as the document shows them: the test receiver's host and port become the
 * partner's, and issued credentials (API keys, signing secrets, handoff tokens) become
 * placeholders that keep their prefix and length, so no working-looking secret is published.
 */
function sanitize<T>(value: T, port: number): T {
  let text = JSON.stringify(value).replaceAll(`${RECEIVER_HOST}:${port}`, 'hooks.harbour-live.example');
  [...credentialsIn(value, new Set())].forEach((credential, i) => {
    const prefix = /^(?:[a-z]+_live_|whsec_)/.exec(credential)?.[0] ?? '';
    const filler = `EXAMPLE${i + 1}example`.repeat(8).slice(0, credential.length - prefix.length);
    text = text.replaceAll(credential, `${prefix}${filler}`);
  });
  return JSON.parse(text) as T;
}

function writeExamples(examples: OperationExamples): void {
  const sorted = Object.fromEntries(
    Object.keys(examples)
      .sort()
      .map((id) => [id, examples[id]]),
  );
  // Data, not code: lint and the duplicate finder read no 2,500-line literal. Written as
  // JSON.stringify writes it, which .prettierignore leaves alone (*.json).
  writeFileSync(EXAMPLES_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
}
