import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EVENT_STATUSES, VERIFICATION_STATUSES } from '../../db/vocabulary.js';
import { verification } from '../../identity/schemas.js';
import { event } from '../../ticketing/schemas.js';
import { createOperatorOverview } from '../overview.js';
import type { OperatorRouteOptions } from '../services.js';
import * as s from '../schemas.js';

const errors = { 400: s.errorEnvelope, 401: s.errorEnvelope, 404: s.errorEnvelope };
const tags = ['operator'];

const paging = {
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
};
const paged = <T extends z.ZodType>(item: T) =>
  s.envelope(z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), limit: z.number().int() }));

/** The operator's list views (profiles; a profile's verifications, events and governance rows), for the console and the CLI alike. */
export const overviewRoutes: FastifyPluginAsyncZod<OperatorRouteOptions> = async (app, { services }) => {
  const overview = createOperatorOverview(services);

  app.get(
    '/profiles',
    {
      schema: {
        operationId: 'listProfiles',
        summary: 'List profiles, newest first',
        tags,
        querystring: z.strictObject(paging),
        response: { 200: paged(s.profile.extend({ createdAt: z.string() })), ...errors },
      },
    },
    async (req) => ({ success: true as const, data: await overview.profiles(req.query) }),
  );

  app.get(
    '/profiles/:id/verifications',
    {
      schema: {
        operationId: 'listProfileVerifications',
        summary: "List a profile's identity verifications, newest first",
        tags,
        params: s.idParams,
        querystring: z.strictObject({
          status: z.enum(VERIFICATION_STATUSES).optional(),
          reference: z
            .string()
            .trim()
            .min(1)
            .max(200)
            .optional()
            .describe('Only verifications whose reference contains this text, in any case (a customer asks about "order-42")'),
          ...paging,
        }),
        response: { 200: paged(verification), ...errors },
      },
    },
    async (req) => {
      const { status, reference, page, limit } = req.query;
      return { success: true as const, data: await overview.verifications(req.params.id, { status, reference }, { page, limit }) };
    },
  );

  app.get(
    '/profiles/:id/events',
    {
      schema: {
        operationId: 'listProfileEvents',
        summary: "List a profile's ticketing events, latest start first",
        tags,
        params: s.idParams,
        querystring: z.strictObject({ status: z.enum(EVENT_STATUSES).optional(), ...paging }),
        response: { 200: paged(event), ...errors },
      },
    },
    async (req) => {
      const { status, page, limit } = req.query;
      return { success: true as const, data: await overview.events(req.params.id, status, { page, limit }) };
    },
  );

  app.get(
    '/profiles/:id/governance',
    {
      schema: {
        operationId: 'listProfileGovernance',
        summary: "List a profile's governance agents and delegations",
        tags,
        params: s.idParams,
        response: { 200: s.envelope(z.object({ agents: z.array(s.agent), delegations: z.array(s.delegation) })), ...errors },
      },
    },
    async (req) => ({ success: true as const, data: await overview.governance(req.params.id) }),
  );
};
