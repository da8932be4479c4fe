import { z } from 'zod';

/**
 * The response bodies of the `{success, …}` APIs, ticketing's partner API and the operator API:
 * `{success:true, data}` and `{success:false, error:{code,message,details?}}` (see envelope-errors.ts).
 */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

export const errorEnvelope = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});
