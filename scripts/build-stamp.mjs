// Whether dist/ holds a build of the current sources: `npm start` rebuilds first when it does not,
// the server (dist/*.js) and the web app (dist/web) each against its own sources.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharedWithTheBrowser from './shared-with-the-browser.cjs';

const SERVER_STAMP = 'dist/.server-build';
// migrations: the build's PGlite template (scripts/pglite-template.mjs) is a database migrated by them.
const SERVER_SOURCES = ['src', 'migrations', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

const WEB_STAMP = 'dist/.web-build';
// What the served pages are built from: web/ and the modules of src/ the capture page shares with
// the server (the list lint:imports holds web/ to). Any other server edit leaves the pages as they
// are; `npm run build:web` also regenerates the typed client from the OpenAPI document.
const WEB_SOURCES = ['web', ...sharedWithTheBrowser, 'scripts/build-web.ts', 'package-lock.json'];
// Written by `npm run build:web` itself, so it is always newer than the sources it came from.
const WEB_GENERATED = new Set([join('web', 'shared', 'api-schema.d.ts')]);

function newestMtime(path, skip = new Set()) {
  if (skip.has(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry), skip));
  return newest;
}

function isStale(stamp, output, sources, skip) {
  if (!existsSync(stamp) || !existsSync(output)) return true;
  const built = statSync(stamp).mtimeMs;
  return sources.some((source) => existsSync(source) && newestMtime(source, skip) > built);
}

/** True when the compiled server is missing or older than any of its sources. */
export function serverBuildIsStale() {
  return isStale(SERVER_STAMP, 'dist/server.js', SERVER_SOURCES);
}

export function markServerBuilt() {
  writeFileSync(SERVER_STAMP, `${new Date().toISOString()}\n`);
}

/** True when the built web app (consoles, capture page) is missing or older than any of its sources. */
export function webBuildIsStale() {
  return isStale(WEB_STAMP, 'dist/web', WEB_SOURCES, WEB_GENERATED);
}

export function markWebBuilt() {
  writeFileSync(WEB_STAMP, `${new Date().toISOString()}\n`);
}
