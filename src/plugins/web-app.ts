import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { CAPTURE_LANGUAGES, captureLanguageOf } from './capture-languages.js';

/**
 * Where `npm run build:web` wrote the pages: dist/web next to the compiled server
 * (dist/plugins → dist/web) or, when running from src with tsx, the repository's dist/web.
 */
export function webAppDir(): string | undefined {
  const candidates = [new URL('../web/', import.meta.url), new URL('../../dist/web/', import.meta.url)];
  return candidates.map((u) => fileURLToPath(u)).find((dir) => existsSync(`${dir}console/index.html`));
}

/**
 * The capture page's own policy: its scripts, styles and API calls come from this origin only;
 * photos are previewed from blob: URLs, the camera plays as a MediaStream, and the face models run
 * as WebAssembly (compiled, never eval'd script). The page may use the camera, nothing else (docs/identity.md "Identity: the hosted capture page").
 */
const CAPTURE_PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'permissions-policy': 'camera=(self), microphone=(), geolocation=()',
  'referrer-policy': 'no-referrer',
};

const require = createRequire(import.meta.url);

/**
 * The files the capture page's pose check loads (docs/identity.md "Identity: the hosted capture page"): the
 * face detector and mesh of `@vladmandic/human` and the tfjs WASM binaries it runs on, straight from
 * their npm packages. Served under the library's version, so they never change at one address and
 * are cached for good: a phone downloads them once.
 */
export function captureModelFiles(): { version: string; files: Map<string, { path: string; type: string }> } {
  const humanDir = join(dirname(require.resolve('@vladmandic/human')), '..');
  const version = (JSON.parse(readFileSync(join(humanDir, 'package.json'), 'utf8')) as { version: string }).version;
  const wasmDir = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
  const files = new Map<string, { path: string; type: string }>();
  for (const model of ['blazeface', 'facemesh']) {
    files.set(`${model}.json`, { path: join(humanDir, 'models', `${model}.json`), type: 'application/json' });
    files.set(`${model}.bin`, { path: join(humanDir, 'models', `${model}.bin`), type: 'application/octet-stream' });
  }
  for (const wasm of ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'])
    files.set(wasm, { path: join(wasmDir, wasm), type: 'application/wasm' });
  return { version, files };
}

const notBuilt = 'The web app is not built: run `npm run build:web` (npm install does it) and restart.\n';

/**
 * The browser pages built by Vite (docs/consoles.md "Consoles"): the consoles under /console/ (a
 * single-page app: every path below it answers its index.html), the hosted capture page at
 * /capture, and their hashed assets under /assets/. Pages are never cached (a deploy replaces
 * them); assets carry a content hash, so they are cached for good.
 */
export const webApp = fp(
  async (app: FastifyInstance) => {
    const root = webAppDir();
    const page =
      (file: string, headers: Record<string, string> = {}) =>
      async (_req: unknown, reply: FastifyReply) => {
        if (!root) return reply.code(503).type('text/plain; charset=utf-8').send(notBuilt);
        reply.header('cache-control', 'no-cache').headers(headers);
        return reply.sendFile(file, root, { cacheControl: false });
      };
    if (root) {
      await app.register(fastifyStatic, {
        root: `${root}assets`,
        prefix: '/assets/',
        index: false,
        immutable: true,
        maxAge: '365d',
        // Routes of the document's own, not of the APIs: left out of the OpenAPI document.
        schemaHide: true,
      });
    }
    const hide = { schema: { hide: true } };
    app.get('/console', hide, async (_req, reply) => reply.redirect('/console/'));
    app.get('/console/', hide, page('console/index.html'));
    app.get('/console/*', hide, page('console/index.html'));
    // The page in the request's language (docs/identity.md "Identity: the hosted capture page"): `npm run build:web`
    // writes capture/index.<code>.html per language; a build without them serves the English page as built.
    const inLanguage = new Map(
      CAPTURE_LANGUAGES.map((code) => {
        const file = `capture/index.${code}.html`;
        const headers = { ...CAPTURE_PAGE_HEADERS, 'content-language': code, vary: 'Accept-Language' };
        return [code, page(root && existsSync(join(root, file)) ? file : 'capture/index.html', headers)] as const;
      }),
    );
    app.get('/capture', hide, (req, reply) => inLanguage.get(captureLanguageOf(req.headers['accept-language']))!(req, reply));
    const models = captureModelFiles();
    app.get<{ Params: { version: string; file: string } }>('/capture/models/:version/:file', hide, async (req, reply) => {
      const file = models.files.get(req.params.file);
      if (req.params.version !== models.version || !file) return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
      reply.header('cache-control', 'public, max-age=31536000, immutable').type(file.type);
      return reply.send(createReadStream(file.path));
    });
  },
  { name: 'web-app' },
);
