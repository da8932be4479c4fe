import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

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
 * photos are previewed from blob: URLs, the camera plays as a MediaStream. The page may use the
 * camera, nothing else (README "Identity: the hosted capture page").
 */
export const CAPTURE_PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'permissions-policy': 'camera=(self), microphone=(), geolocation=()',
  'referrer-policy': 'no-referrer',
};

const notBuilt = 'The web app is not built: run `npm run build:web` (npm install does it) and restart.\n';

/**
 * The browser pages built by Vite (README "Consoles"): the consoles under /console/ (a
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
    app.get('/capture', hide, page('capture/index.html', CAPTURE_PAGE_HEADERS));
  },
  { name: 'web-app' },
);
