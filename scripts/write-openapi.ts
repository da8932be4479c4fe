/**
 * Writes the OpenAPI document the server serves at /openapi.json to a file:
 *   tsx scripts/write-openapi.ts <out-file>
 * The app is built exactly as the server builds it (every API, the operator API included), on
 * an in-memory PGlite with no jobs and no logger, so the file is the served document and not a
 * hand-kept copy. Used by the OpenAPI lint (`npm run lint:openapi`) and the typed web client.
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

const dataDir = mkdtempSync(join(tmpdir(), 'write-openapi-'));
try {
  const app = await buildApp(
    configFrom({
      DATABASE_URL: 'memory://',
      DATA_DIR: dataDir,
      // Only so the operator API is mounted and documented; nothing listens.
      ADMIN_TOKEN: 'write-openapi-placeholder-token',
      LOG_LEVEL: 'silent',
    }),
    { startJobs: false, logger: false },
  );
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
