import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { captureLanguagePages } from './capture/i18n/served-pages.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/** The face library's version: the capture page loads its models from /capture/models/<version>/ (src/plugins/web-app.ts). */
const humanVersion = (JSON.parse(readFileSync(here('../node_modules/@vladmandic/human/package.json'), 'utf8')) as { version: string })
  .version;

/**
 * The browser app: one multi-page build with an entry per page (the operator and reviewer
 * consoles, the hosted capture page), written to dist/web and served by the server itself
 * (src/plugins/web-app.ts). No inline scripts or styles are emitted, so the pages run under a
 * strict `script-src 'self'` Content-Security-Policy.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  publicDir: false,
  define: { __HUMAN_VERSION__: JSON.stringify(humanVersion) },
  plugins: [captureLanguagePages()],
  // Preact's automatic JSX runtime (no React, no compat layer).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // A module preload polyfill would be one more script; every supported browser has it built in.
    modulePreload: { polyfill: false },
    // Keep small assets as files: data: URIs would need a looser CSP.
    assetsInlineLimit: 0,
    reportCompressedSize: true,
    // The capture page's face library (about 1.5 MB) is a chunk of its own, loaded only after the page is up.
    chunkSizeWarningLimit: 2048,
    rolldownOptions: {
      input: {
        console: here('console/index.html'),
        capture: here('capture/index.html'),
      },
    },
  },
});
