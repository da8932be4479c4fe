import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFrom } from '../../src/config.js';
import { startupLines } from '../../src/startup-lines.js';
import { useTestApp } from '../helpers/suite.js';

const root = join(import.meta.dirname, '../..');

describe('startup lines', () => {
  it('say where the server is, which database, whether the operator API is on, and where the docs are', () => {
    const embedded = startupLines(configFrom({ DATA_DIR: './somewhere' }), 3000);
    expect(embedded).toEqual([
      'Partner services listening on http://127.0.0.1:3000',
      `Database: embedded PGlite in ${resolve('./somewhere/pglite')} (set DATABASE_URL=postgres://… for PostgreSQL)`,
      'Operator API: off; set ADMIN_TOKEN (16 characters or more) and restart to turn on /admin/v1',
      'API docs: http://127.0.0.1:3000/docs (OpenAPI document: http://127.0.0.1:3000/openapi.json)',
    ]);
    // The image's HOST=0.0.0.0 (Dockerfile): every interface, said so.
    expect(startupLines(configFrom({ HOST: '0.0.0.0' }), 3000)[0]).toBe(
      'Partner services listening on http://localhost:3000 (all interfaces, port 3000)',
    );
    const pg = startupLines(
      configFrom({
        HOST: '127.0.0.1',
        DATABASE_URL: 'postgres://app:s3cret@db.internal:6543/partner',
        ADMIN_TOKEN: 'a-token-of-sixteen-chars',
      }),
      8080,
    );
    expect(pg[0]).toBe('Partner services listening on http://127.0.0.1:8080');
    expect(pg[1]).toBe('Database: PostgreSQL partner at db.internal:6543');
    expect(pg[2]).toBe('Operator API: on at http://127.0.0.1:8080/admin/v1 (Authorization: Bearer <ADMIN_TOKEN>)');
    expect(pg.join('\n')).not.toMatch(/s3cret|a-token-of-sixteen-chars/);
    expect(startupLines(configFrom({ DATABASE_URL: 'memory://' }), 1)[1]).toMatch(/in-memory PGlite.*nothing is kept/);
  });

  it('are printed by the real server, one readable line each, and GET / and /admin/v1 point the way', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'startup-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: 'memory://', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stderr = '';
      const lines = await new Promise<string[]>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no startup lines in time: ${stderr}`)), 150_000);
        child.stderr!.on('data', (c: Buffer) => {
          stderr += c.toString();
          const got = stderr.split('\n').filter(Boolean);
          if (got.some((l) => l.startsWith('API docs:'))) {
            clearTimeout(timer);
            done(got);
          }
        });
        child.on('exit', (code) => fail(new Error(`server exited with ${code}: ${stderr}`)));
      });
      expect(lines).toHaveLength(4);
      const base = /listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0]!)?.[1];
      expect(base, lines[0]).toBeDefined();
      expect(lines[1]).toMatch(/^Database: in-memory PGlite/);
      expect(lines[2]).toMatch(/^Operator API: off; set ADMIN_TOKEN/);
      expect(lines[3]).toBe(`API docs: ${base}/docs (OpenAPI document: ${base}/openapi.json)`);

      const home = await fetch(`${base}/`);
      expect(home.status).toBe(200);
      expect(await home.json()).toMatchObject({ docs: '/docs', openapi: '/openapi.json', console: '/console/', capture: '/capture' });
      const admin = await fetch(`${base}/admin/v1/profiles`);
      expect(admin.status).toBe(404);
      expect(((await admin.json()) as { error: { message: string } }).error.message).toMatch(/operator API is disabled.*ADMIN_TOKEN/);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('GET /', () => {
  const { ctx } = useTestApp();

  it('answers JSON pointing at the docs, the document, the consoles and the operator API', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html']) {
      const res = await ctx.app.inject({ method: 'GET', url: '/', headers: accept ? { accept } : {} });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({
        docs: '/docs',
        openapi: '/openapi.json',
        console: '/console/',
        capture: '/capture',
        apis: { ticketing: '/api/v1', identity: '/v1', operator: '/admin/v1' },
        operator_api: expect.stringMatching(/^on: \/admin\/v1/),
      });
    }
  });

  it('answers a browser with an HTML page linking the same places, no script or inline style', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers.vary).toMatch(/accept/i);
    for (const href of ['/docs', '/openapi.json', '/console/', '/capture']) expect(res.body).toContain(`href="${href}"`);
    expect(res.body).not.toMatch(/<script|style=/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
