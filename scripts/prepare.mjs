// npm's `prepare` hook, after `npm install`: compiles the server (dist/, what `npm start` runs)
// and builds the web app (dist/web), so `npm start` starts at once and serves the consoles. A
// production install (`npm ci --omit=dev`) has no compiler, no Vite and no sources to build
// from; it skips with one line instead of failing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { markServerBuilt, markWebBuilt } from './build-stamp.mjs';

if (!existsSync('node_modules/vite/package.json') || !existsSync('node_modules/typescript/package.json') || !existsSync('src/app.ts')) {
  console.log('prepare: no compiler, no Vite or no sources here (production install?): skipping the build');
  process.exit(0);
}
const run = (script) => spawnSync('npm', ['run', script, '--silent'], { stdio: 'inherit' }).status ?? 1;
const server = run('build');
if (server !== 0) process.exit(server);
await import('./pglite-template.mjs');
markServerBuilt();
const web = run('build:web');
if (web === 0) markWebBuilt();
process.exit(web);
