import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './api-schema.js';

export type { operations, paths } from './api-schema.js';
export type ApiClient = Client<paths>;

/** The JSON an operation (by its operationId, in `operations`) answers with `status`: a page's types come from the server's document. */
export type Answer<Operation, Status extends number = 200> = Operation extends {
  responses: { [S in Status]: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

/**
 * A client typed from the server's own OpenAPI document (generated into api-schema.d.ts by
 * `npm run build:web`), so a page cannot call a route or read a field the server does not have.
 * `token` is the bearer credential: an API key for /v1 and /api/v1, ADMIN_TOKEN for /admin/v1.
 */
export function createApiClient(options: ClientOptions & { token?: string } = {}): ApiClient {
  const { token, headers, ...rest } = options;
  return createClient<paths>({
    ...rest,
    headers: { ...(headers as Record<string, string> | undefined), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}
