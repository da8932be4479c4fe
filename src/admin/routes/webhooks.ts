import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DELIVERY_STATES } from '../../db/vocabulary.js';
import { RESPONSE_EXCERPT_BYTES } from '../../webhooks/response-excerpt.js';
import { DELIVERY_COUNT_CAP, TICKETING_EVENT_TYPES } from '../../webhooks/types.js';
import * as s from '../schemas.js';

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

const attempt = z.object({
  attempt: z.number().int(),
  at: z.string(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int().nullable().describe('Until the status line came, or until the attempt ended without one'),
  error: z.string().nullable(),
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
  attempts: z.array(attempt),
});

/** The delivery detail: the body it sends, and the start of each answer's body (src/webhooks/response-excerpt.ts). */
const deliveryDetail = delivery.extend({
  requestBody: z.string().describe('The signed body, byte for byte as sent (JSON text)'),
  attempts: z.array(
    attempt.extend({
      responseBody: z
        .string()
        .nullable()
        .describe(
          `The start of the receiver's answer body: its first ${RESPONSE_EXCERPT_BYTES} bytes as UTF-8 text (bytes that are not UTF-8, and NUL, read as U+FFFD; a character cut in two at the bound is left out). ` +
            'Null when no answer came (timeout, refused connection, a refusal before sending) and for attempts made before the answer was kept.',
        ),
      responseBodyTruncated: z
        .boolean()
        .describe("The answer body went on past the excerpt, or stopped arriving before it ended (within the attempt's timeout)"),
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

/** Webhook endpoints and the delivery log (signed, retried deliveries of ticketing events), over the webhooks service. */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const ops = app.webhooks.service;
  const tags = ['operator'];

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
      const created = await ops.createEndpoint(req.params.id, req.body);
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
    async (req) => ({ success: true as const, data: { items: await ops.listEndpoints(req.params.id) } }),
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
      async (req) => ({ success: true as const, data: await ops.setEndpointEnabled(req.params.id, enabled) }),
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
    async (req) => ({ success: true as const, data: await ops.rotateSecret(req.params.id) }),
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
    async (req, reply) => reply.status(202).send({ success: true, data: await ops.sendTestEvent(req.params.id) }),
  );

  app.get(
    '/webhook-deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'List webhook deliveries and their attempts',
        tags,
        description:
          'The delivery log, newest first: every attempt with its time, status code, duration and error. ' +
          'Attempts are kept `WEBHOOK_LOG_RETENTION_DAYS` days (30 by default) after they started, then deleted with their answer bodies; the delivery stays listed with its state, attempt count and last status code.',
        querystring: deliveryQuery,
        response: {
          200: s.envelope(
            z.object({
              items: z.array(delivery),
              page: z.number(),
              limit: z.number(),
              total: z.number().describe(`The deliveries matching the filter, counted up to ${DELIVERY_COUNT_CAP.toLocaleString('en')}`),
              totalCapped: z
                .boolean()
                .describe(
                  `True when more than ${DELIVERY_COUNT_CAP.toLocaleString('en')} match: \`total\` is then that many, and later pages still answer`,
                ),
            }),
          ),
          ...errors,
        },
      },
    },
    async (req) => {
      const { status, page, limit, profileId, endpointId, eventId } = req.query;
      const result = await ops.listDeliveries({ profileId, endpointId, eventId, state: status, page, limit });
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
          `Each attempt keeps the start of the receiver's answer body, \`responseBody\`: at most its first ${RESPONSE_EXCERPT_BYTES} bytes (1 KiB), so a receiver answering megabytes cannot fill the database; the rest is read only to reuse the connection, and never kept. ` +
          "The answer's headers are not kept, nor anything of the request's signature. The list (`GET /admin/v1/webhook-deliveries`) leaves the answer bodies out. " +
          'An attempt older than `WEBHOOK_LOG_RETENTION_DAYS` (30 by default) is no longer listed: it was deleted with its answer body.',
        params: s.idParams,
        response: { 200: s.envelope(deliveryDetail), ...errors },
      },
    },
    async (req) => ({ success: true as const, data: await ops.deliveryDetail(req.params.id) }),
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
    async (req, reply) => reply.status(202).send({ success: true, data: await ops.redeliver(req.params.id) }),
  );
};
