import type { FastifyRequest } from 'fastify';
import { governanceErrors as errors } from './errors.js';

/** The profile of the governance key that authenticated the request (routes with a governanceScope). */
export function profileOf(req: FastifyRequest): string {
  const principal = req.governancePrincipal;
  if (!principal) throw errors.unauthorized();
  return principal.profileId;
}
