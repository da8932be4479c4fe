import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { socketDevice } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';

/** What a populated store holds, to find again in a restored one. */
export interface Populated {
  ticketingKey: string;
  eventId: string;
  backendKey: string;
  reviewerKey: string;
  /** A verification in manual review, and its images as the reviewer API served them. */
  reviewId: string;
  images: Map<string, Buffer>;
  governanceKey: string;
  records: unknown[];
  publicKey: string;
}

function client(base: string) {
  const call = async (method: string, path: string, key: string, body?: unknown, status?: number) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (status !== undefined) expect(res.status, text).toBe(status);
    return { status: res.status, json: () => JSON.parse(text) as any };
  };
  const admin = async (path: string, body: unknown) => (await call('POST', `/admin/v1${path}`, ADMIN_TOKEN, body, 201)).json().data;
  return { call, admin };
}

async function capture(base: string, backendKey: string, document: Buffer, seed: number) {
  const { call } = client(base);
  const created = (
    await call('POST', '/v1/verifications', backendKey, { webhook_url: 'https://127.0.0.1:9/hooks', reference: `backup-${seed}` }, 201)
  ).json();
  const device = socketDevice(base, created.handoff_token);
  await device.upload('document', document);
  const challenge = await device.challenge();
  const selfies = new Map<number, Buffer>();
  for (const { step } of challenge.steps) {
    const frame = png(640, 480, { seed: seed * 100 + step });
    selfies.set(step, frame);
    await device.upload('selfie', frame, { step: String(step) });
  }
  return { id: created.id as string, selfies };
}

/**
 * Fills the server at `base` (started with ADMIN_TOKEN, its jobs running): a ticketing event, a
 * verification in manual review with its document and selfie images, and a governance chain.
 */
export async function populate(base: string): Promise<Populated> {
  const { call, admin } = client(base);
  const profile = await admin('/profiles', { name: 'Backed up', plan: 'ENTERPRISE' });
  const venue = await admin(`/profiles/${profile.id}/venues`, {
    name: 'Warehouse',
    address: '1 Dock Road',
    city: 'Hamburg',
    lat: 53.55,
    lng: 9.99,
    timezone: 'Europe/Berlin',
  });
  const ticketingKey = (await admin('/api-keys', { service: 'ticketing', profileId: profile.id, scopes: ['events:read', 'events:write'] }))
    .key;
  const event = (
    await call(
      'POST',
      '/api/v1/events',
      ticketingKey,
      {
        name: 'Harbour Nights',
        description: 'Live music by the water',
        address: '1 Dock Road',
        lat: 53.55,
        lng: 9.99,
        categories: ['music'],
        placeId: venue.id,
        eventStartsAt: '2026-12-31T20:00:00.000Z',
      },
      201,
    )
  ).json().data;

  const backendKey = (await admin('/api-keys', { service: 'identity', profileId: profile.id, role: 'backend' })).key;
  const reviewerKey = (await admin('/api-keys', { service: 'identity', profileId: profile.id, role: 'reviewer' })).key;
  // The same document twice: the second verification goes to manual review, where its images can be read back.
  const document = png(640, 480, { seed: 7 });
  const first = await capture(base, backendKey, document, 1);
  const status = async (id: string) => (await call('GET', `/v1/verifications/${id}`, backendKey, undefined, 200)).json().status as string;
  await vi.waitFor(async () => expect(await status(first.id)).not.toBe('processing'), { timeout: 30_000, interval: 200 });
  const second = await capture(base, backendKey, document, 2);
  await vi.waitFor(async () => expect(await status(second.id)).toBe('manual_review'), { timeout: 30_000, interval: 200 });

  const images = new Map<string, Buffer>();
  for (const path of ['document', ...[...second.selfies.keys()].map((step) => `selfie/${step}`)]) {
    images.set(path, await reviewImage(base, reviewerKey, second.id, path));
  }
  expect(images.size).toBeGreaterThan(1);

  const governanceKey = (
    await admin('/api-keys', { service: 'governance', profileId: profile.id, scopes: ['governance:decide', 'governance:read'] })
  ).key;
  await admin('/governance/agents', {
    profileId: profile.id,
    agentId: 'agent-7',
    mandate: ['payments.*'],
    baseline: { fingerprint: 'fp-1', maxDrift: 0.2 },
  });
  await admin('/governance/delegations', {
    profileId: profile.id,
    agentId: 'agent-7',
    grantedBy: 'cfo@example.com',
    expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
  });
  for (let i = 0; i < 3; i++) {
    await call(
      'POST',
      '/v1/governance/decisions',
      governanceKey,
      {
        agent_id: 'agent-7',
        action: 'payments.refund',
        authority_status: 'VALID',
        human_present: false,
        consequence_tier: 'LOW',
        timestamp: new Date().toISOString(),
        behavior: { fingerprint: 'fp-1', drift: 0.05 },
      },
      201,
    );
  }
  const records = (await call('GET', '/v1/governance/records', governanceKey, undefined, 200)).json().records as unknown[];
  expect(records).toHaveLength(3);
  const keys = (await call('GET', '/v1/crypto/keys', governanceKey, undefined, 200)).json().keys as {
    public_key: string;
    status: string;
  }[];
  const publicKey = keys.find((k) => k.status === 'current')!.public_key;
  return { ticketingKey, eventId: event.id, backendKey, reviewerKey, reviewId: second.id, images, governanceKey, records, publicKey };
}

async function reviewImage(base: string, reviewerKey: string, id: string, path: string): Promise<Buffer> {
  const res = await fetch(`${base}/v1/review/${id}/images/${path}`, { headers: { authorization: `Bearer ${reviewerKey}` } });
  expect(res.status, path).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

function verifyRecordCli(args: string[]): Promise<{ code: number; out: string }> {
  const cli = join(import.meta.dirname, '../../bin/verify-record.js');
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 20_000 }, (err, stdout) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout });
    });
  });
}

/** Checks that the server at `base` holds everything `populate` put in the original store. */
export async function expectRestored(base: string, was: Populated, scratchDir: string): Promise<void> {
  const { call } = client(base);
  const event = (await call('GET', `/api/v1/events/${was.eventId}`, was.ticketingKey, undefined, 200)).json().data;
  expect(event.name).toBe('Harbour Nights');

  expect((await call('GET', `/v1/verifications/${was.reviewId}`, was.backendKey, undefined, 200)).json().status).toBe('manual_review');
  for (const [path, bytes] of was.images)
    expect((await reviewImage(base, was.reviewerKey, was.reviewId, path)).equals(bytes), path).toBe(true);

  const exported = (await call('GET', '/v1/governance/records', was.governanceKey, undefined, 200)).json();
  expect(exported.records).toEqual(was.records);
  const file = join(scratchDir, 'governance-export.json');
  writeFileSync(file, JSON.stringify(exported));
  const verified = await verifyRecordCli([file, '--public-key', was.publicKey, '--chain']);
  expect(verified.out).toMatch(/^VALID chain of 3 records, seq 1\.\.3/);
  expect(verified.code).toBe(0);
}
