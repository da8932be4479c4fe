import type { FastifyReply } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type ResponseSchema = z.ZodType | { properties: z.ZodType };

/** The JSON Schema fast-json-stringify can serialize exactly as zod would, or undefined when there is none. */
function plainJsonSchema(schema: z.ZodType): object | undefined {
  try {
    const options = { target: 'openapi-3.0', unrepresentable: 'throw', cycles: 'throw', reused: 'inline' } as const;
    const output = z.toJSONSchema(schema, { ...options, io: 'output' });
    // Transforms, pipes, codecs and defaults make the written shape differ from the returned one: zod's job.
    const input = z.toJSONSchema(schema, { ...options, io: 'input' });
    // (Objects differ only in additionalProperties: output is closed, input is open.)
    const shape = (json: object) => JSON.stringify(json, (key, value: unknown) => (key === 'additionalProperties' ? undefined : value));
    const text = shape(output);
    if (text !== shape(input) || text.includes('"$ref"')) return undefined;
    return output;
  } catch {
    return undefined;
  }
}

/**
 * Responses are written by fast-json-stringify from each zod schema's JSON Schema: only the
 * declared keys, nullable keys kept as null, a missing required key still a 500. Running a full
 * zod parse of every response before JSON.stringify cost more than the query of a list page.
 * A schema JSON Schema cannot describe exactly keeps the zod serializer.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<ResponseSchema> = (route) => {
  const schema = route.schema instanceof z.ZodType ? route.schema : route.schema.properties;
  const json = schema instanceof z.ZodType ? plainJsonSchema(schema) : undefined;
  if (!json) return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
  return fastJson(json as Parameters<typeof fastJson>[0]);
};

/**
 * Sends JSON text a route has already written in the shape of its response schema (a cached
 * page, a record's canonical JSON): with the JSON content type set, Fastify sends a string as
 * it is, so the serializer above never runs on it.
 */
export function sendJsonText(reply: FastifyReply, status: number, json: string): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(json);
}
