/**
 * Writes the server's OpenAPI document as JSON: `tsx scripts/write-openapi.ts <out-file>`.
 * Builds the whole app on an in-memory database (no jobs, no logger), so the document is the
 * one the server itself serves at /openapi.json; the web build types its client from it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: tsx scripts/write-openapi.ts <out-file>\n');
  process.exit(2);
}

const dataDir = mkdtempSync(join(tmpdir(), 'openapi-'));
try {
  // A placeholder operator token: without one the operator API is not registered at all.
  const config = configFrom({ DATABASE_URL: 'memory://', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_TOKEN: 'openapi-document-only-token' });
  const app = await buildApp(config, { startJobs: false, logger: false });
  try {
    await app.ready();
    const file = resolve(out);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(app.swagger(), null, 2)}\n`);
  } finally {
    await app.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
