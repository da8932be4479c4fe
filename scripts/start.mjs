// `npm start`: runs the compiled server (dist/server.js). A checkout whose sources changed since
// the last build (a pull, an edit) is rebuilt first, so what starts is always what the sources
// say; `npm run dev` runs the sources directly through tsx instead.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { markServerBuilt, serverBuildIsStale } from './build-stamp.mjs';

if (existsSync('src/server.ts') && existsSync('node_modules/typescript/package.json') && serverBuildIsStale()) {
  console.error('start: the sources changed since the last build; compiling them first (npm run build)');
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  await import('./pglite-template.mjs');
  markServerBuilt();
}
await import('../dist/server.js');
