import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../helpers/app.js';
import { buildRequest, commandName, commandUsage, parseFlags, splitGlobalOptions, UsageError } from '../../src/cli/cli-args.js';

const run = promisify(execFile);

describe('operator CLI arguments', () => {
  const createVenue = { name: 'create-venue', method: 'POST', path: '/profiles/{id}/venues' };

  it('names commands after operationIds', () => {
    expect(commandName('createApiKey')).toBe('create-api-key');
    expect(commandName('publishEvent')).toBe('publish-event');
  });

  it('reads JSON-looking values as JSON, dotted flags as nesting and repeated flags as lists', () => {
    expect(
      parseFlags([
        '--lat',
        '52.5',
        '--name',
        'Hall',
        '--buyer.email',
        'a@b.c',
        '--scopes',
        'events:read',
        '--scopes',
        'orders:read',
        '--flag',
      ]),
    ).toEqual({
      lat: 52.5,
      name: 'Hall',
      buyer: { email: 'a@b.c' },
      scopes: ['events:read', 'orders:read'],
      flag: true,
    });
    expect(parseFlags(['--items=[{"quantity":2}]'])).toEqual({ items: [{ quantity: 2 }] });
    expect(parseFlags(['--json', '{"name":"x"}', '--plan', 'FREE'])).toEqual({ name: 'x', plan: 'FREE' });
  });

  it('fills path parameters and sends the rest as the body', () => {
    expect(buildRequest(createVenue, ['--id', 'p1', '--name', 'Hall'])).toEqual({
      method: 'POST',
      url: '/admin/v1/profiles/p1/venues',
      body: { name: 'Hall' },
    });
    expect(buildRequest({ name: 'list-api-keys', method: 'GET', path: '/api-keys' }, ['--profileId', 'p 1'])).toEqual({
      method: 'GET',
      url: '/admin/v1/api-keys?profileId=p+1',
    });
  });

  it('edits a venue: both path parameters filled, a number as a number, null to clear the city', () => {
    const updateVenue = { name: 'update-venue', method: 'PATCH', path: '/profiles/{id}/venues/{venueId}' };
    expect(buildRequest(updateVenue, ['--id', 'p1', '--venueId', 'v1', '--lat', '52.5', '--city', 'null'])).toEqual({
      method: 'PATCH',
      url: '/admin/v1/profiles/p1/venues/v1',
      body: { lat: 52.5, city: null },
    });
    expect(() => buildRequest(updateVenue, ['--id', 'p1', '--name', 'Hall'])).toThrow(UsageError);
  });

  it("sets a profile's identity retention as a number of days, or null to keep decided verifications", () => {
    const updateProfile = { name: 'update-profile', method: 'PATCH', path: '/profiles/{id}' };
    expect(buildRequest(updateProfile, ['--id', 'p1', '--identityRetentionDays', '90'])).toEqual({
      method: 'PATCH',
      url: '/admin/v1/profiles/p1',
      body: { identityRetentionDays: 90 },
    });
    expect(buildRequest(updateProfile, ['--id', 'p1', '--identityRetentionDays', 'null']).body).toEqual({ identityRetentionDays: null });
  });

  it('reads list flags as a,b, as a JSON array or repeated', () => {
    const createKey = { name: 'create-api-key', method: 'POST', path: '/api-keys', flags: ['service!', 'profileId!', 'scopes[]', 'role'] };
    const scopes = (args: string[]) => buildRequest(createKey, ['--service', 'ticketing', '--profileId', 'p1', ...args]).body?.scopes;
    expect(scopes(['--scopes', 'events:read,orders:read'])).toEqual(['events:read', 'orders:read']);
    expect(scopes(['--scopes', 'events:read, orders:read,'])).toEqual(['events:read', 'orders:read']);
    expect(scopes(['--scopes', '["events:read","orders:read"]'])).toEqual(['events:read', 'orders:read']);
    expect(scopes(['--scopes', 'events:read', '--scopes', 'orders:read'])).toEqual(['events:read', 'orders:read']);
    expect(scopes(['--scopes', 'events:read'])).toEqual(['events:read']);
    // Not a list flag: a comma stays in the value.
    expect(buildRequest(createKey, ['--service', 'ticketing', '--profileId', 'p1', '--role', 'a,b']).body?.role).toBe('a,b');
  });

  it('takes --url only before the command (after it, url is a body field) and --help anywhere', () => {
    expect(splitGlobalOptions(['--url', 'http://localhost:3000/', 'get-profile', '--id', 'x'])).toEqual({
      url: 'http://localhost:3000',
      help: false,
      rest: ['get-profile', '--id', 'x'],
    });
    expect(splitGlobalOptions(['create-webhook-endpoint', '--id', 'x', '--url', 'https://hooks.example.com/a'])).toEqual({
      help: false,
      rest: ['create-webhook-endpoint', '--id', 'x', '--url', 'https://hooks.example.com/a'],
    });
    expect(splitGlobalOptions(['create-profile', '--help'])).toEqual({ help: true, rest: ['create-profile'] });
    expect(() => splitGlobalOptions(['--url'])).toThrow(UsageError);
    expect(() => splitGlobalOptions(['--url', 'localhost:3000', 'get-profile'])).toThrow(UsageError);
    expect(() => splitGlobalOptions(['--verbose', 'get-profile'])).toThrow(UsageError);
  });

  it("lists an enumerated flag's allowed values in the command's --help, by group where they depend on another flag", () => {
    const help = commandUsage({
      name: 'create-api-key',
      method: 'POST',
      path: '/api-keys',
      flags: ['service!', 'profileId!', 'scopes[]', 'role'],
      choices: {
        service: ['ticketing', 'identity'],
        scopes: { ticketing: ['events:read', 'orders:read'], governance: ['governance:read'] },
      },
    }).split('\n');
    const flagLine = (flag: string) => help.find((l) => l.trimStart().startsWith(flag));
    expect(flagLine('--service')).toMatch(/required\s+one of: ticketing, identity$/);
    expect(flagLine('--scopes')).toMatch(/optional\s+any of, for ticketing: events:read, orders:read; for governance: governance:read$/);
    expect(flagLine('--profileId')).toMatch(/required$/);
    expect(flagLine('--role')).toMatch(/optional$/);
  });

  it('refuses a missing path parameter and stray words', () => {
    expect(() => buildRequest(createVenue, ['--name', 'Hall'])).toThrow(UsageError);
    expect(() => parseFlags(['name'])).toThrow(UsageError);
    expect(() => parseFlags(['--json', '[1]'])).toThrow(UsageError);
  });
});

describe('operator CLI', () => {
  it("prints a command's flags with their allowed values on --help, without a database", async () => {
    const tsx = join(process.cwd(), 'node_modules/.bin/tsx');
    // The embedded database would create DATA_DIR: --help leaves it unmade.
    const dataDir = join(tmpdir(), `cli-help-${process.pid}-${Date.now()}`);
    const { DATABASE_URL: _unused, ...inherited } = process.env;
    const env = { ...inherited, DATA_DIR: dataDir };
    const { stdout } = await run(tsx, ['src/cli/cli.ts', 'create-api-key', '--help'], { env });
    expect(stdout).toMatch(/--service\s+required\s+one of: ticketing, identity, governance\n/);
    expect(stdout).toMatch(/--role\s+optional\s+one of: backend, reviewer\n/);
    expect(stdout).toContain(
      'any of, for ticketing: events:read, events:write, orders:read, tickets:read, attendees:read; for governance: governance:decide, governance:read',
    );
    const status = await run(tsx, ['src/cli/cli.ts', 'change-event-status', '--help'], { env });
    expect(status.stdout).toMatch(/--status\s+required\s+one of: ACTIVE, INACTIVE, ARCHIVED\n/);
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  it('provisions through the same operator operations and prints JSON', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cli-'));
    const database = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: database?.url ?? 'memory://', LOG_LEVEL: 'silent' };
    try {
      const tsx = join(process.cwd(), 'node_modules/.bin/tsx');
      const { stdout } = await run(tsx, ['src/cli/cli.ts', 'create-profile', '--name', 'Acme Events', '--plan', 'ENTERPRISE'], { env });
      expect(JSON.parse(stdout)).toMatchObject({ success: true, data: { name: 'Acme Events', plan: 'ENTERPRISE' } });
      const failed = await run(tsx, ['src/cli/cli.ts', 'create-profile', '--name', 'Acme', '--plan', 'GOLD'], { env }).catch(
        (e: { code: number; stdout: string }) => e,
      );
      expect(failed).toMatchObject({ code: 1 });
      expect(JSON.parse((failed as { stdout: string }).stdout).error.code).toBe('VALIDATION_ERROR');
      const unknown = await run(tsx, ['src/cli/cli.ts', 'make-coffee'], { env }).catch((e: { code: number; stderr: string }) => e);
      expect(unknown).toMatchObject({ code: 2 });
      expect((unknown as { stderr: string }).stderr).toContain('unknown command "make-coffee"');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    }
  }, 180_000);

  it("prints every profile's transparency-log keys, the list GET /v1/governance/log/keys publishes", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cli-'));
    const database = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
    // The embedded store in DATA_DIR (or one PostgreSQL database) keeps what each command wrote for the next.
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'https://governance.example.com' };
    if (database) env.DATABASE_URL = database.url;
    else delete env.DATABASE_URL;
    const admin = async (...args: string[]) =>
      JSON.parse((await run(join(process.cwd(), 'node_modules/.bin/tsx'), ['src/cli/cli.ts', ...args], { env })).stdout);
    try {
      const profile = (await admin('create-profile', '--name', 'Audited', '--plan', 'PRO')).data;
      await admin('create-api-key', '--service', 'governance', '--profileId', profile.id, '--scopes', 'governance:read');
      const printed = await admin('list-transparency-log-keys');
      expect(printed).toEqual({
        success: true,
        data: {
          keys: [
            {
              origin: `governance.example.com/governance/${profile.id}`,
              verifier_key: expect.stringMatching(
                new RegExp(`^governance\\.example\\.com/governance/${profile.id}\\+[0-9a-f]{8}\\+[A-Za-z0-9+/]+=*$`),
              ),
              ml_dsa_public_key: expect.stringMatching(/^[A-Za-z0-9+/]{2000,}=*$/),
              created_at: expect.stringMatching(/Z$/),
            },
          ],
        },
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    }
  }, 300_000);
});
