// npm's `prepare` hook: builds the web app after `npm install`, so `npm start` serves the
// consoles without an extra step. A production install (`npm ci --omit=dev`) has no Vite and
// no sources to build from; it skips with one line instead of failing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('node_modules/vite/package.json') || !existsSync('web/vite.config.ts') || !existsSync('src/app.ts')) {
  console.log('prepare: no Vite or no web sources here (production install?): skipping the web build');
  process.exit(0);
}
const result = spawnSync('npm', ['run', 'build:web'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
