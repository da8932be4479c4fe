import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EnvelopeError, validationError } from '../plugins/envelope-errors.js';
import { WebhookOperationError } from '../webhooks/errors.js';
import { TICKETING_EVENT_TYPES } from '../webhooks/types.js';
import { DELIVERY_STATES } from '../db/vocabulary.js';
import * as s from './schemas.js';

const errors = { 400: s.errorEnvelope, 401: s.errorEnvelope, 404: s.errorEnvelope, 409: s.errorEnvelope, 503: s.errorEnvelope };

const endpoint = z.object({
  id: z.uuid(),
  profileId: z.uuid(),
  url: z.string(),
  events: z.array(z.string()).describe('Event types delivered to this endpoint; empty means every type'),
  enabled: z.boolean(),
  disabledAt: z.string().nullable(),
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
});

const endpointCreate = z.strictObject({
  url: z.string().max(2048).describe('An https:// URL on the public internet'),
  events: z.array(z.enum(TICKETING_EVENT_TYPES)).min(1).optional().describe('Omit to receive every event type'),
});

/** A delivery in the log (also in a verification's detail: its decision webhooks). */
export const delivery = z.object({
  id: z.uuid(),
  eventId: z.uuid(),
  type: z.string().describe('The event type'),
  endpointId: z.uuid().nullable(),
  url: z.string(),
  state: z.enum(DELIVERY_STATES),
  attemptCount: z.number().int(),
  maxAttempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  attempts: z.array(
    z.object({
      attempt: z.number().int(),
      at: z.string(),
      statusCode: z.number().int().nullable(),
      durationMs: z.number().int().nullable(),
      error: z.string().nullable(),
    }),
  ),
});

const deliveryQuery = z.strictObject({
  profileId: z.uuid().optional().describe("Only this profile's deliveries (its endpoints' and its identity decision webhooks)"),
  endpointId: z.uuid().optional(),
  eventId: z.uuid().optional(),
  status: z.enum(DELIVERY_STATES).optional().describe('Filters on the delivery state'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

function asEnvelopeError(err: unknown): unknown {
  if (!(err instanceof WebhookOperationError)) return err;
  if (err.code === 'NOT_FOUND') return new EnvelopeError(404, 'NOT_FOUND', err.message);
  if (err.code === 'INVALID_URL') return validationError([{ path: 'body.url', message: err.message }]);
  return new EnvelopeError(409, err.code, err.message);
}

/** Webhook endpoints and the delivery log (signed, retried deliveries of ticketing events), over the webhooks service. */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const ops = app.webhooks.service;
  const tags = ['operator'];
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw asEnvelopeError(err);
    }
  };

  app.post(
    '/profiles/:id/webhook-endpoints',
    {
      schema: {
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint',
        tags,
        description:
          'Registers a receiver. The URL must be https and resolve only to public addresses. The signing secret is shown only in this answer.',
        params: s.idParams,
        body: endpointCreate,
        response: { 201: s.envelope(endpoint.extend({ secret: z.string() })), ...errors },
      },
    },
    async (req, reply) => {
      const created = await call(() => ops.createEndpoint(req.params.id, req.body));
      return reply.status(201).send({ success: true, data: created });
    },
  );

  app.get(
    '/profiles/:id/webhook-endpoints',
    {
      schema: {
        operationId: 'listWebhookEndpoints',
        summary: "List a profile's webhook endpoints",
        tags,
        params: s.idParams,
        response: { 200: s.envelope(z.object({ items: z.array(endpoint) })), ...errors },
      },
    },
    async (req) => ({ success: true as const, data: { items: await call(() => ops.listEndpoints(req.params.id)) } }),
  );

  for (const [action, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    app.post(
      `/webhook-endpoints/:id/${action}`,
      {
        schema: {
          operationId: `${action}WebhookEndpoint`,
          summary: enabled ? 'Enable a webhook endpoint' : 'Disable a webhook endpoint',
          tags,
          description: enabled ? 'Turns deliveries back on and clears the failure count.' : 'Stops deliveries; pending ones end failed.',
          params: s.idParams,
          response: { 200: s.envelope(endpoint), ...errors },
        },
      },
      async (req) => ({ success: true as const, data: await call(() => ops.setEndpointEnabled(req.params.id, enabled)) }),
    );
  }

  app.post(
    '/webhook-endpoints/:id/rotate-secret',
    {
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: "Rotate an endpoint's signing secret",
        tags,
        description:
          'A new signing secret, shown only here. For 24 hours the old secret keeps signing too: the header carries one v1= per live secret. Rotating again within those 24 hours retires the oldest secret at once.',
        params: s.idParams,
        response: { 200: s.envelope(z.object({ secret: z.string() })), ...errors },
      },
    },
    async (req) => ({ success: true as const, data: await call(() => ops.rotateSecret(req.params.id)) }),
  );

  app.post(
    '/webhook-endpoints/:id/test',
    {
      schema: {
        operationId: 'sendTestWebhook',
        summary: 'Send a test event to an endpoint',
        tags,
        description: 'Queues a signed `webhook.test` event to this endpoint only.',
        params: s.idParams,
        response: { 202: s.envelope(z.object({ eventId: z.uuid(), deliveryId: z.uuid() })), ...errors },
      },
    },
    async (req, reply) => reply.status(202).send({ success: true, data: await call(() => ops.sendTestEvent(req.params.id)) }),
  );

  app.get(
    '/webhook-deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'List webhook deliveries and their attempts',
        tags,
        description: 'The delivery log, newest first: every attempt with its time, status code, duration and error.',
        querystring: deliveryQuery,
        response: {
          200: s.envelope(z.object({ items: z.array(delivery), page: z.number(), limit: z.number(), total: z.number() })),
          ...errors,
        },
      },
    },
    async (req) => {
      const { status, page, limit, profileId, endpointId, eventId } = req.query;
      const result = await call(() => ops.listDeliveries({ profileId, endpointId, eventId, state: status, page, limit }));
      return { success: true as const, data: { ...result, page, limit } };
    },
  );

  app.get(
    '/webhook-deliveries/:id',
    {
      schema: {
        operationId: 'getWebhookDelivery',
        summary: 'Get one webhook delivery with its attempts and the body it sends',
        tags,
        description:
          'The delivery with every attempt (time, status code, duration, error), `nextAttemptAt` while it is pending, and `requestBody`: the event exactly as every attempt sends it. ' +
          "The receiver's answer is kept as its status code (or what went wrong), not its body.",
        params: s.idParams,
        response: {
          200: s.envelope(delivery.extend({ requestBody: z.string().describe('The signed body, byte for byte as sent (JSON text)') })),
          ...errors,
        },
      },
    },
    async (req) => ({ success: true as const, data: await call(() => ops.deliveryDetail(req.params.id)) }),
  );

  app.post(
    '/webhook-deliveries/:id/redeliver',
    {
      schema: {
        operationId: 'redeliverWebhook',
        summary: "Send a delivery's event again",
        tags,
        description:
          'Sends the same event (same id and body) again now. A pending delivery has its next attempt brought forward; a finished one gets one more attempt.',
        params: s.idParams,
        response: { 202: s.envelope(delivery), ...errors },
      },
    },
    async (req, reply) => reply.status(202).send({ success: true, data: await call(() => ops.redeliver(req.params.id)) }),
  );
};
