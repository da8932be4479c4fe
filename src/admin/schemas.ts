import { z } from 'zod';
import { isTimeZone } from '../lib/time.js';

export const idParams = z.object({ id: z.string() });

export const plan = z.enum(['ENTERPRISE', 'PRO', 'FREE']);

export const profile = z.object({ id: z.uuid(), name: z.string(), plan });

export const profileCreate = z.strictObject({ name: z.string().trim().min(1).max(200), plan });
export const profilePatch = z
  .strictObject({ name: z.string().trim().min(1).max(200).optional(), plan: plan.optional() })
  .refine((v) => v.name !== undefined || v.plan !== undefined, 'name or plan is required');

export const venueCreate = z.strictObject({
  name: z.string().trim().min(1).max(200),
  address: z.string().trim().min(1).max(500),
  city: z.string().trim().min(1).max(200).optional(),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  timezone: z.string().refine(isTimeZone, 'unknown time-zone name').optional(),
});

export const venue = z.object({
  id: z.uuid(),
  profileId: z.uuid(),
  name: z.string(),
  address: z.string(),
  city: z.string().nullable(),
  lat: z.number(),
  lng: z.number(),
  timezone: z.string().nullable(),
  createdAt: z.string(),
});

export const ticketingScope = z.enum(['events:read', 'events:write', 'orders:read', 'tickets:read', 'attendees:read']);
export const governanceScope = z.enum(['governance:decide', 'governance:read']);

export const apiKeyCreate = z.discriminatedUnion('service', [
  z.strictObject({ service: z.literal('ticketing'), profileId: z.uuid(), scopes: z.array(ticketingScope).min(1) }),
  z.strictObject({ service: z.literal('identity'), profileId: z.uuid(), role: z.enum(['backend', 'reviewer']) }),
  z.strictObject({ service: z.literal('governance'), profileId: z.uuid(), scopes: z.array(governanceScope).min(1) }),
]);

export const apiKey = z.object({
  id: z.uuid(),
  key: z.string().optional(),
  service: z.enum(['ticketing', 'identity', 'governance']),
  profileId: z.uuid(),
  scopes: z.array(z.string()).optional(),
  role: z.enum(['backend', 'reviewer']).optional(),
  createdAt: z.string(),
  revokedAt: z.string().nullable().optional(),
});

export const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

export const errorEnvelope = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});
