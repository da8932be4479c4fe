import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A migrated, empty embedded database, written next to the compiled server at build time
 * (`npm install`, `npm start` after a change, the Docker build). A fresh DATA_DIR starts from it
 * instead of running PGlite's initdb and every migration: about half the embedded database's
 * start-up (README, Start). It is only used with the PGlite version that wrote it; migrations
 * added since still apply on top, as on any existing data directory.
 */
export const PGLITE_TEMPLATE = fileURLToPath(new URL('../pglite-template.tgz', import.meta.url));

/** The installed PGlite's version, read from its package.json (its exports map does not list that file). */
export function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}
export const versionFile = (template: string) => `${template}.version`;

/**
 * The template to load into `pgliteDir`, when the directory holds no database yet and a template
 * written by this PGlite version exists; otherwise undefined (the database opens as it is).
 */
export function templateFor(pgliteDir: string, template = PGLITE_TEMPLATE): Blob | undefined {
  if (existsSync(join(pgliteDir, 'PG_VERSION'))) return undefined;
  if (!existsSync(template) || !existsSync(versionFile(template))) return undefined;
  if (readFileSync(versionFile(template), 'utf8').trim() !== pgliteVersion()) return undefined;
  return new Blob([readFileSync(template)]);
}
