import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LANES } from '../../jobs/kinds.js';
import type { OperatorRouteOptions } from '../services.js';
import { ACTIVITY_RANGES, createActivityReport, type ActivityRange } from '../activity.js';
import * as s from '../schemas.js';

const count = z.number().int().nonnegative();
const failing = z.object({
  url: z.string().describe('Where the deliveries go'),
  endpoint_id: z.uuid().nullable().describe("The registered endpoint, or null for a verification's own webhook_url"),
  profile_id: z.uuid(),
  failed: count.describe('Attempts that failed there in the range'),
  last_at: z.string().describe('When the latest attempt there started (it failed)'),
  last_status_code: z.number().int().nullable().describe('Its status code, or null when no answer came'),
  last_error: z.string().nullable().describe('What went wrong when no answer came (e.g. DEPTH_ZERO_SELF_SIGNED_CERT, a timeout)'),
  last_delivery_id: z.uuid().describe('The delivery of that attempt (GET /admin/v1/webhook-deliveries/{id})'),
});
const minute = z.object({
  at: z.string().describe('Start of the count (UTC): a minute, or `bucket_minutes` minutes'),
  deliveries: z
    .object({ delivered: count, failed: count })
    .describe('Webhook attempts started in the minute and finished: answered 2xx, or not (an error, a timeout or another status)'),
  decisions: z
    .object({ approved: count, declined: count, manual_review: count })
    .describe("Identity decisions in the minute by status, the pipeline's and the reviewers'"),
  queued: z
    .object(Object.fromEntries(LANES.map((lane) => [lane, count])) as Record<(typeof LANES)[number], typeof count>)
    .describe('Jobs waiting (due or scheduled) or running at the end of the minute, by lane; for the current minute, now'),
});

/** The operator console's Overview: the last hour of the whole deployment, per minute. */
export const activityRoutes: FastifyPluginAsyncZod<OperatorRouteOptions> = async (app, { services }) => {
  const report = createActivityReport(app.db, app.clock, services.identity.reads);

  app.get(
    '/activity',
    {
      schema: {
        operationId: 'getActivity',
        summary:
          'The last hour (or 6 or 24 hours) in sixty counts: webhook deliveries, identity decisions, queue depth, and what is failing',
        description:
          'Sixty counts, oldest first, the current one last: minutes for `range=1h` (the default), 6 minutes for `6h`, 24 for `24h`. ' +
          'With `profileId`, the deliveries and decisions of that profile only (the queue depth stays the deployment’s: jobs belong to no profile). ' +
          '`failing` names each address whose latest attempt in the range failed, with its count of failed attempts and what the latest met. ' +
          'Read from the database, so the answer covers every instance of the deployment.',
        tags: ['operator'],
        querystring: z.strictObject({
          range: z
            .enum(Object.keys(ACTIVITY_RANGES) as [ActivityRange, ...ActivityRange[]])
            .default('1h')
            .describe('How far back: 1h, 6h or 24h'),
          profileId: z.uuid().optional().describe("Only this profile's deliveries and decisions"),
        }),
        response: {
          200: s.envelope(
            z.object({
              from: z.string(),
              to: z.string(),
              bucket_minutes: z.number().int().describe('The minutes one count covers: 1, 6 or 24'),
              minutes: z.array(minute).length(60),
              failing: z.array(failing).describe('Where deliveries are failing now, most failed attempts first (at most 20)'),
            }),
          ),
          400: s.errorEnvelope,
          401: s.errorEnvelope,
          404: s.errorEnvelope,
        },
      },
    },
    async (req) => ({ success: true as const, data: await report.lastHour(req.query) }),
  );
};
