import { writeFileSync } from 'node:fs';
import { openDatabase } from './client.js';
import { applyMigrations } from './migrate.js';
import { PGLITE_TEMPLATE, pgliteVersion, versionFile } from './pglite-template.js';

/** Writes the template: an in-memory database, migrated, dumped gzipped, with the PGlite version beside it. */
export async function writePgliteTemplate(template = PGLITE_TEMPLATE): Promise<void> {
  const database = await openDatabase({ url: 'memory://', dataDir: '' });
  try {
    await applyMigrations(database);
    const dump = await database.pglite!.dumpDataDir('gzip');
    writeFileSync(template, Buffer.from(await dump.arrayBuffer()));
    writeFileSync(versionFile(template), `${pgliteVersion()}\n`);
  } finally {
    await database.close();
  }
}
