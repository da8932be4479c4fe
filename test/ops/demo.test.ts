import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase, usingPostgres } from '../helpers/app.js';

const root = join(import.meta.dirname, '../..');

/**
 * `npm run demo -- --exit` as a new user runs it: its own server and webhook receiver, the
 * walkthrough of docs/walkthrough.md with the files of test/fixtures/walkthrough/, face checks and document
 * reading on (the defaults), nothing from the internet. On PostgreSQL its server gets a fresh
 * database of the CI server (face checks and document reading off there: see below).
 */
describe('npm run demo', () => {
  it(
    'makes a tenant, keys, events with delivered webhooks, a decided verification and a sealed record, then stops',
    { timeout: 900_000 },
    async () => {
      const database = usingPostgres() ? await createPostgresDatabase(process.env.DATABASE_URL!) : null;
      try {
        const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn' };
        // The recognition of the walkthrough's files is the same on either database: on PostgreSQL
        // the run checks the storage path alone and spares CI the models and OCR a second time.
        if (database) Object.assign(env, { DATABASE_URL: database.url, FACE_CHECKS: 'off', DOCUMENT_READING: 'off' });
        if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--exit', '--port', '0'], {
          cwd: root,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
        child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
        const code = await new Promise<number | null>((done) => child.on('exit', done));
        expect(code, output).toBe(0);
        expect(output).toMatch(/profile {7}[0-9a-f-]{36} {2}"Moonlight Concerts"/);
        expect(output).toMatch(/published, with a ticket type and order [0-9a-f-]{36} \(2 tickets\)/);
        // event.published and order.paid at least, each answered by the demo's receiver.
        const [, succeeded, all] = /: (\d+) of (\d+) deliveries succeeded/.exec(output) ?? [];
        expect(Number(all), output).toBeGreaterThanOrEqual(2);
        expect(succeeded).toBe(all);
        // The walkthrough's files make the same person in every pose: the pipeline approves them,
        // or a face-match score between the thresholds sends them to review and the demo's reviewer approves.
        expect(output).toMatch(
          /verification {2}[0-9a-f-]{36}: approved( \(the pipeline sent it to review, face_match_uncertain; the demo's reviewer key approved it\))?\n/,
        );
        expect(output).toContain("record seq 1: ALLOW for refund-bot's tickets.refund");
        // The governance walk's consistency step, between two different sizes (docs/governance.md).
        expect(output).toMatch(/log {11}VALID consistent: tree 1 is a prefix of tree 2 of /);
        expect(output).toMatch(/operator {6}ADMIN_TOKEN=demo-/);
        expect(output).toMatch(/\/console\/operator/);
      } finally {
        await database?.drop();
      }
    },
  );
});
