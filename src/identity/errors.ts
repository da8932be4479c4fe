import { z } from 'zod';

/** An identity API error: its status and the one human-readable `detail`. */
export class IdentityError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export const errorBody = z.object({ detail: z.string() }).describe('Every identity error: exactly one field, `detail`.');

export const notFound = () => new IdentityError(404, 'Verification not found');
