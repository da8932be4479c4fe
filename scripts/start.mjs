// `npm start`: runs the compiled server (dist/server.js). A checkout whose sources changed since
// the last build (a pull, an edit) is rebuilt first, so what starts is always what the sources
// say: the server when src/ or the migrations changed, the web app (consoles, capture page) when
// web/ or the server's schemas did. `npm run dev` runs the server's sources directly through tsx
// instead.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { markServerBuilt, markWebBuilt, serverBuildIsStale, webBuildIsStale } from './build-stamp.mjs';

const canBuild = existsSync('src/server.ts') && existsSync('node_modules/typescript/package.json');
const run = (script) => spawnSync('npm', ['run', script, '--silent'], { stdio: 'inherit' }).status ?? 1;

if (canBuild && serverBuildIsStale()) {
  console.error('start: the sources changed since the last build; compiling them first (npm run build)');
  const status = run('build');
  if (status !== 0) process.exit(status);
  await import('./pglite-template.mjs');
  markServerBuilt();
}
if (canBuild && existsSync('web') && existsSync('node_modules/vite/package.json') && webBuildIsStale()) {
  console.error('start: the web app changed since the last build; building it first (npm run build:web)');
  const status = run('build:web');
  if (status !== 0) process.exit(status);
  markWebBuilt();
}
await import('../dist/server.js');
