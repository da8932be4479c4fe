// Whether dist/ holds a build of the current sources: `npm start` rebuilds first when it does not.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = 'dist/.server-build';
// migrations: the build's PGlite template (scripts/pglite-template.mjs) is a database migrated by them.
const SOURCES = ['src', 'migrations', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when the compiled server is missing or older than any of its sources. */
export function serverBuildIsStale() {
  if (!existsSync(STAMP) || !existsSync('dist/server.js')) return true;
  const built = statSync(STAMP).mtimeMs;
  return SOURCES.some((source) => existsSync(source) && newestMtime(source) > built);
}

export function markServerBuilt() {
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}
