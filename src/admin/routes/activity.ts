import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LANES } from '../../jobs/kinds.js';
import { createActivityReport } from '../activity.js';
import * as s from '../schemas.js';

const count = z.number().int().nonnegative();
const minute = z.object({
  at: z.string().describe('Start of the minute (UTC)'),
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
export const activityRoutes: FastifyPluginAsyncZod = async (app) => {
  const report = createActivityReport(app.db, app.clock);

  app.get(
    '/activity',
    {
      schema: {
        operationId: 'getActivity',
        summary: 'The last hour per minute: webhook deliveries, identity decisions, queue depth',
        description:
          'Sixty minutes, oldest first, the current minute last. Read from the database, so the answer covers every instance of the deployment.',
        tags: ['operator'],
        querystring: z.strictObject({}),
        response: {
          200: s.envelope(z.object({ from: z.string(), to: z.string(), minutes: z.array(minute).length(60) })),
          400: s.errorEnvelope,
          401: s.errorEnvelope,
          404: s.errorEnvelope,
        },
      },
    },
    async () => ({ success: true as const, data: await report.lastHour() }),
  );
};
