import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findUnstorableText } from '../lib/storable-text.js';

/**
 * Any request part (params, query, body, headers) with a string the database cannot store:
 * one zod issue at the field's path, so every API's error handler reports it like any other
 * validation failure, in its own format and status.
 */
const storableInput = z.unknown().superRefine((value, ctx) => {
  const found = findUnstorableText(value);
  if (found) ctx.addIssue({ code: 'custom', path: found.path, message: found.message, input: value });
});

/**
 * The validator of every route of every API (set once on the root instance): the storable-text
 * check first, then the route's own zod schema. It runs before any handler, so no text that
 * PostgreSQL refuses or silently alters reaches a query (src/lib/storable-text.ts).
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const guard = zodValidatorCompiler({ ...route, schema: storableInput });
  const validate = zodValidatorCompiler(route);
  return (data) => {
    // The zod provider's validators are synchronous and always answer `{ error }` or `{ value }`.
    const refused = guard(data) as { error?: unknown };
    return refused.error ? (refused as ReturnType<typeof guard>) : validate(data);
  };
};
