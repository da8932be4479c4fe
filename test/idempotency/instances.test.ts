import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestContext } from '../helpers/app.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';
import { draftEvent, eventBody, organizer, ticketType, type Organizer } from '../helpers/ticketing.js';
import { keyedCall, newKey } from './support.js';

/**
 * Two answers to one key sent to both instances at the same moment: one ran the request, the
 * other either replays its answer or, while it still ran, says so (409) — and its retry replays.
 */
async function expectOneRun(
  answers: LightMyRequestResponse[],
  retry: () => Promise<LightMyRequestResponse>,
  ranStatus: number,
): Promise<LightMyRequestResponse> {
  const ran = answers.filter((a) => a.headers['idempotent-replayed'] === undefined && a.statusCode === ranStatus);
  expect(ran, answers.map((a) => `${a.statusCode} ${a.body}`).join('\n')).toHaveLength(1);
  for (const other of answers.filter((a) => a !== ran[0])) {
    if (other.statusCode === 409) expect(other.body).toMatch(/IDEMPOTENCY_KEY_IN_USE/);
    else expect([other.statusCode, other.headers['idempotent-replayed'], other.body]).toEqual([ranStatus, 'true', ran[0]!.body]);
  }
  const later = await retry();
  expect([later.statusCode, later.headers['idempotent-replayed'], later.body]).toEqual([ranStatus, 'true', ran[0]!.body]);
  return ran[0]!;
}

describe.runIf(process.env.DATABASE_URL)('Idempotency-Key across two instances on one PostgreSQL', () => {
  let one: TestContext;
  let two: TestContext;
  beforeAll(async () => {
    one = await buildTestApp();
    two = await buildTestApp({ shareWith: one, clock: one.clock });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('replays on one instance the answer the other gave', async () => {
    const tenant = await governedTenant(one);
    const key = newKey();
    const body = goodDecision(one);
    const first = await keyedCall(one, { method: 'POST', url: '/v1/governance/decisions', token: tenant.key, key, body });
    const onTwo = await keyedCall(two, { method: 'POST', url: '/v1/governance/decisions', token: tenant.key, key, body });
    expect([onTwo.statusCode, onTwo.headers['idempotent-replayed'], onTwo.body]).toEqual([201, 'true', first.body]);
  });

  it('seals one record for a decision sent with one key to both instances at once', async () => {
    const tenant = await governedTenant(one);
    const rounds = 8;
    for (let round = 0; round < rounds; round++) {
      const key = newKey('decision');
      const body = goodDecision(one);
      const send = (ctx: TestContext) => keyedCall(ctx, { method: 'POST', url: '/v1/governance/decisions', token: tenant.key, key, body });
      await expectOneRun(await Promise.all([send(one), send(two), send(one), send(two)]), () => send(two), 201);
    }
    const { records } = (await call(two, 'GET', '/v1/governance/records?after_seq=0&limit=1000', undefined, tenant.key)).body;
    expect(records.map((r: { seq: number }) => r.seq)).toEqual(Array.from({ length: rounds }, (_, i) => i + 1));
  });

  it('sells once for an order sent with one key to both instances at once', async () => {
    const org: Organizer = await organizer(one);
    const event = await draftEvent(org);
    const type = await ticketType(one, event.id, { quantity: 100 });
    await one.admin('POST', `/events/${event.id}/publish`);
    const rounds = 8;
    for (let round = 0; round < rounds; round++) {
      const key = newKey('order');
      const body = {
        items: [{ ticketTypeId: type.id, quantity: 2 }],
        buyer: { name: 'Ada', email: 'ada@example.com' },
        status: 'CONFIRMED',
      };
      const send = (ctx: TestContext) =>
        keyedCall(ctx, { method: 'POST', url: `/admin/v1/events/${event.id}/orders`, token: ADMIN_TOKEN, key, body });
      await expectOneRun(await Promise.all([send(two), send(one), send(two), send(one)]), () => send(one), 201);
    }
    const types = (await org.call('GET', `/events/${event.id}/ticket-types`)).json().data.items;
    expect(types[0].sold).toBe(2 * rounds);
    const orders = (await org.call('GET', `/events/${event.id}/orders?limit=100`)).json().data;
    expect(orders.total).toBe(rounds);
  });

  it('creates one event for a POST /events sent with one key to both instances at once', async () => {
    const org = await organizer(one);
    const key = newKey('event');
    const body = eventBody(org.venueId, { name: 'Raced Nights' });
    const send = (ctx: TestContext) => keyedCall(ctx, { method: 'POST', url: '/api/v1/events', token: org.key, key, body });
    await expectOneRun(await Promise.all([send(one), send(two)]), () => send(one), 201);
    expect((await org.call('GET', '/events?limit=100')).json().data.total).toBe(1);
  });
});
