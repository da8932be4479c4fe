import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { addKey, createTenant } from '../helpers/tenants.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const bin = (path: string) => join(ROOT, 'node_modules', path);

/**
 * A partner's view of the document: TypeScript types generated from the served /openapi.json
 * with openapi-typescript, a program that calls one operation of each API through openapi-fetch,
 * compiled with tsc (strict) and run against the server on a real socket. A document that lies
 * about a shape fails either the compile (a field the program reads is missing or of another
 * type) or the run (the answer is not what the types promise).
 */
const CLIENT = String.raw`
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error('missing ' + name);
  return value;
};
const bearer = (token: string) => ({ authorization: 'Bearer ' + token });
function check(ok: boolean, what: string): asserts ok {
  if (!ok) throw new Error('answer not as documented: ' + what);
}

const client = createClient<paths>({ baseUrl: env('BASE_URL') });
const results: Record<string, unknown> = {};

// Operator API: create a profile.
{
  const { data, error, response } = await client.POST('/admin/v1/profiles', {
    headers: bearer(env('ADMIN_TOKEN')),
    body: { name: 'Client Check Ltd', plan: 'PRO' },
  });
  check(response.status === 201 && !error && data !== undefined, 'createProfile 201');
  const id: string = data.data.id;
  const plan: 'ENTERPRISE' | 'PRO' | 'FREE' = data.data.plan;
  check(data.success === true && typeof id === 'string' && plan === 'PRO', 'createProfile body');
  results.operator = { id, plan };
}

// Ticketing API: read an event, then an unknown one (its error envelope).
{
  const eventId = env('EVENT_ID');
  const { data, response } = await client.GET('/api/v1/events/{eventId}', { headers: bearer(env('TICKETING_KEY')), params: { path: { eventId } } });
  check(response.status === 200 && data !== undefined, 'getEvent 200');
  const name: string = data.data.name;
  const startsAt: string = data.data.startsAt;
  const status: 'DRAFT' | 'ACTIVE' | 'INACTIVE' | 'CANCELLED' | 'ARCHIVED' = data.data.status;
  check(data.data.id === eventId && typeof name === 'string' && typeof startsAt === 'string' && status === 'DRAFT', 'getEvent body');
  const missing = await client.GET('/api/v1/events/{eventId}', {
    headers: bearer(env('TICKETING_KEY')),
    params: { path: { eventId: '00000000-0000-4000-8000-000000000000' } },
  });
  check(missing.response.status === 404 && missing.error !== undefined, 'getEvent 404');
  const code: string = missing.error.error.code;
  check(missing.error.success === false && code === 'NOT_FOUND', 'ticketing error envelope');
  results.ticketing = { name, status, notFound: code };
}

// Identity API: create a verification, then read one without a key (its {detail} error).
{
  const { data, response } = await client.POST('/v1/verifications', {
    headers: bearer(env('IDENTITY_KEY')),
    body: { webhook_url: 'https://127.0.0.1:9/hooks/identity', reference: 'client-check-1' },
  });
  check(response.status === 201 && data !== undefined, 'createVerification 201');
  const token: string = data.handoff_token;
  check(typeof data.id === 'string' && typeof token === 'string' && data.status === 'awaiting_capture', 'createVerification body');
  const denied = await client.GET('/v1/verifications/{id}', { params: { path: { id: data.id } } });
  check(denied.response.status === 401 && denied.error !== undefined, 'getVerification 401');
  const detail: string = denied.error.detail;
  check(typeof detail === 'string' && Object.keys(denied.error).length === 1, 'identity error body');
  results.identity = { status: data.status, unauthorized: detail };
}

// Governance API: seal a decision of the proof scenario.
{
  const { data, response } = await client.POST('/v1/proof/scenario/run', { headers: bearer(env('GOVERNANCE_KEY')), body: { condition: 'A' } });
  check(response.status === 201 && data !== undefined, 'runProofScenario 201');
  const disposition: string = data.record.disposition;
  const signature: string = data.record.signature;
  check(disposition === 'ALLOW' && typeof signature === 'string' && data.changed_condition === null, 'runProofScenario body');
  const refused = await client.POST('/v1/proof/scenario/run', { body: { condition: 'B' } });
  check(refused.response.status === 401 && refused.error !== undefined, 'runProofScenario 401');
  const code: string = refused.error.error.code;
  check(code === 'UNAUTHORIZED', 'governance error body');
  results.governance = { disposition, unauthorized: code };
}

console.log(JSON.stringify(results));
`;

describe('a client generated from the served document (openapi-typescript + openapi-fetch)', () => {
  const { ctx } = useTestApp();
  let baseUrl: string;
  let dir: string;
  let served: { paths: Record<string, Record<string, any>> };
  let env: Record<string, string>;

  /** Generates the types from `doc` and compiles the program; returns tsc's exit code and output. */
  async function compile(doc: object, into: string) {
    const project = join(dir, into);
    await run('mkdir', ['-p', project]);
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
    writeFileSync(join(project, 'openapi.json'), JSON.stringify(doc));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(join(project, 'client.ts'), CLIENT);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          outDir: 'out',
        },
        files: ['client.ts', 'api.d.ts'],
      }),
    );
    await run(process.execPath, [bin('openapi-typescript/bin/cli.js'), join(project, 'openapi.json'), '-o', join(project, 'api.d.ts')], {
      cwd: project,
    });
    try {
      await run(process.execPath, [bin('typescript/bin/tsc'), '-p', join(project, 'tsconfig.json')], { cwd: project });
      return { code: 0, output: '' };
    } catch (err) {
      const e = err as { code?: number; stdout?: string };
      return { code: e.code ?? 1, output: e.stdout ?? String(err) };
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const res = await fetch(`${baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    served = (await res.json()) as typeof served;

    const ticketing = await createTenant(ctx, { service: 'ticketing', scopes: ['events:read'] });
    const venue = (
      await ctx.admin('POST', `/profiles/${ticketing.profileId}/venues`, {
        name: 'Harbour Hall',
        address: 'Wilhelminakade 123',
        lat: 51.9,
        lng: 4.48,
      })
    ).data;
    const writer = await addKey(ctx, ticketing.profileId, { service: 'ticketing', scopes: ['events:write'] });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${writer.key}` },
      payload: {
        name: 'Jazz on the Quay',
        description: '',
        address: 'Wilhelminakade 123',
        lat: 51.9,
        lng: 4.48,
        categories: ['music'],
        placeId: venue.id,
        eventStartsAt: '2026-12-18T19:00:00.000Z',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const identity = await createTenant(ctx, { service: 'identity', role: 'backend' });
    const governance = await createTenant(ctx, { service: 'governance', scopes: ['governance:decide'] });
    env = {
      BASE_URL: baseUrl,
      ADMIN_TOKEN,
      EVENT_ID: created.json().data.id,
      TICKETING_KEY: ticketing.key,
      IDENTITY_KEY: identity.key,
      GOVERNANCE_KEY: governance.key,
    };
  }, 60_000);
  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('compiles against the types of the served document and its calls get the documented answers', async () => {
    const compiled = await compile(served, 'served');
    expect(compiled.output).toBe('');
    expect(compiled.code).toBe(0);
    const { stdout } = await run(process.execPath, [join(dir, 'served', 'out', 'client.js')], { env: { ...process.env, ...env } });
    expect(JSON.parse(stdout)).toEqual({
      operator: { id: expect.any(String), plan: 'PRO' },
      ticketing: { name: 'Jazz on the Quay', status: 'DRAFT', notFound: 'NOT_FOUND' },
      identity: { status: 'awaiting_capture', unauthorized: expect.any(String) },
      governance: { disposition: 'ALLOW', unauthorized: 'UNAUTHORIZED' },
    });
  }, 180_000);

  it('fails to compile when the document lies about a shape', async () => {
    // The same program against a document whose event calls its name a number.
    const lying = structuredClone(served);
    const schema = lying.paths['/api/v1/events/{eventId}']!.get.responses['200'].content['application/json'].schema;
    schema.properties.data.properties.name = { type: 'number' };
    const compiled = await compile(lying, 'lying');
    expect(compiled.code).not.toBe(0);
    expect(compiled.output).toMatch(/client\.ts\(\d+,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/);
  }, 180_000);
});
