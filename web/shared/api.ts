import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './api-schema.js';

export type { paths } from './api-schema.js';
export type ApiClient = Client<paths>;

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
