import { z } from 'zod';
import { createdVerification, httpsUrl, httpsUrlOf, returnUrlInput } from '../identity/schemas.js';
import { isTimeZone } from '../lib/time.js';
import { envelope, errorEnvelope } from '../plugins/envelope-schemas.js';
import { GOVERNANCE_SCOPES, IDENTITY_ROLES, KEY_SERVICES, PLANS, REVIEW_POLICIES, TICKETING_SCOPES } from '../db/vocabulary.js';

export { envelope, errorEnvelope };

export const idParams = z.object({ id: z.string() });

export const plan = z.enum(PLANS);

export const reviewPolicy = z
  .enum(REVIEW_POLICIES)
  .describe('Manual review: `single` (one reviewer decides) or `four_eyes` (final only when two different reviewer keys agree)');

export const identityRetentionDays = z
  .number()
  .int()
  .min(1)
  .max(3650)
  .nullable()
  .describe(
    'Days after its decision (approved or declined) a verification of this profile is erased, exactly as `DELETE /v1/verifications/{id}` erases it (audit actor `retention`); null keeps decided verifications until they are erased. Checked hourly.',
  );

/** Checked as `webhook_url` is (https only, at most 2048 characters): the capture page links to it, so it must not be javascript: or plain http. */
export const privacyPolicyUrl = httpsUrlOf('privacyPolicyUrl')
  .nullable()
  .describe(
    'The privacy policy the hosted capture page links to on its first screen, before the person agrees and the camera opens (https only); null, the default, shows the page’s own summary without a link.',
  );

export const profile = z.object({ id: z.uuid(), name: z.string(), plan, reviewPolicy, identityRetentionDays, privacyPolicyUrl });

export const profileCreate = z.strictObject({ name: z.string().trim().min(1).max(200), plan });
export const profilePatch = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    plan: plan.optional(),
    reviewPolicy: reviewPolicy.optional(),
    identityRetentionDays: identityRetentionDays.optional(),
    privacyPolicyUrl: privacyPolicyUrl.optional(),
  })
  .refine(
    (v) =>
      v.name !== undefined ||
      v.plan !== undefined ||
      v.reviewPolicy !== undefined ||
      v.identityRetentionDays !== undefined ||
      v.privacyPolicyUrl !== undefined,
    'name, plan, reviewPolicy, identityRetentionDays or privacyPolicyUrl is required',
  );

const venueFields = {
  name: z.string().trim().min(1).max(200),
  address: z.string().trim().min(1).max(500),
  city: z.string().trim().min(1).max(200),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  timezone: z.string().refine(isTimeZone, 'unknown time-zone name'),
};

export const venueCreate = z.strictObject({
  ...venueFields,
  city: venueFields.city.optional(),
  timezone: venueFields.timezone.optional(),
});

/** The fields to change, checked as on create; `city` and `timezone` null clear them. */
export const venuePatch = z
  .strictObject({
    name: venueFields.name.optional(),
    address: venueFields.address.optional(),
    city: venueFields.city.nullable().optional(),
    lat: venueFields.lat.optional(),
    lng: venueFields.lng.optional(),
    timezone: venueFields.timezone.nullable().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'at least one of name, address, city, lat, lng or timezone is required');

export const venueParams = z.object({ id: z.string(), venueId: z.string() });

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

export const ticketingScope = z.enum(TICKETING_SCOPES);
export const governanceScope = z.enum(GOVERNANCE_SCOPES);

const keyName = z.string().trim().min(1).max(80).optional().describe('Who holds the key (e.g. the reviewer), shown beside its decisions');

const keyHolder = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .optional()
  .describe(
    'Reviewer keys only: the person who holds the key. Under four-eyes review two keys with the same holder (compared ignoring case and spacing) count as one reviewer; a key without holder is its own holder',
  );

export const apiKeyCreate = z.discriminatedUnion('service', [
  z.strictObject({ service: z.literal('ticketing'), profileId: z.uuid(), scopes: z.array(ticketingScope).min(1), name: keyName }),
  z
    .strictObject({ service: z.literal('identity'), profileId: z.uuid(), role: z.enum(IDENTITY_ROLES), name: keyName, holder: keyHolder })
    .refine((k) => k.holder === undefined || k.role === 'reviewer', {
      path: ['holder'],
      message: 'holder goes with a reviewer key only: it says who counts as which reviewer under four-eyes review',
    }),
  z.strictObject({ service: z.literal('governance'), profileId: z.uuid(), scopes: z.array(governanceScope).min(1), name: keyName }),
]);

export const apiKey = z.object({
  id: z.uuid(),
  key: z.string().optional(),
  service: z.enum(KEY_SERVICES),
  profileId: z.uuid(),
  scopes: z.array(z.string()).optional(),
  role: z.enum(IDENTITY_ROLES).optional(),
  name: z.string().nullable(),
  holder: z
    .string()
    .nullable()
    .describe('Who holds the reviewer key (four-eyes review counts holders, not keys); null when none was given'),
  prefix: z.string().describe("The key's first characters as issued: its type prefix plus four"),
  last4: z.string().describe("The key's last four characters (empty for keys issued before they were kept)"),
  createdAt: z.string(),
  revokedAt: z.string().nullable().optional(),
  lastUsedAt: z.string().nullable().describe('When the key last authenticated a request; null until used; may lag up to a minute'),
});

/** Governance agents and delegations (operator API). */
export const agentCreate = z.strictObject({
  profileId: z.uuid(),
  agentId: z.string().trim().min(1).max(200),
  mandate: z.array(z.string().trim().min(1).max(200)).max(100),
  baseline: z.strictObject({ fingerprint: z.string().min(1).max(200), maxDrift: z.number().min(0).max(1e9) }),
});
export const agent = z.object({
  id: z.uuid(),
  profileId: z.uuid(),
  agentId: z.string(),
  mandate: z.array(z.string()),
  baseline: z.object({ fingerprint: z.string(), maxDrift: z.number() }),
  createdAt: z.string(),
});
export const delegationCreate = z.strictObject({
  profileId: z.uuid(),
  agentId: z.string().trim().min(1).max(200),
  grantedBy: z.string().trim().min(1).max(200),
  expiresAt: z.iso.datetime({ offset: true }),
});
export const delegation = z.object({
  id: z.uuid(),
  profileId: z.uuid(),
  agentId: z.string(),
  grantedBy: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
});

/** A verification started by the operator (POST /admin/v1/profiles/{id}/verifications). */
export const verificationStart = z.strictObject({
  reference: z.string().trim().min(1).max(200).nullish().describe('Your own reference for this verification, shown in the consoles'),
  webhook_url: httpsUrl.nullish().describe('Where the decision webhook goes; omitted, none is sent'),
  return_url: returnUrlInput,
});
export const startedVerification = createdVerification.extend({ webhook_url: z.string().nullable() });
