import type { FastifyPluginAsync, FastifyRequest } from 'fastify';

/** Where a newcomer goes from `GET /`: the docs, the document, the consoles, the probes. */
function homeLinks(operatorApiOn: boolean) {
  return {
    service: 'Partner services: Ticketing Partner API, Identity Verification Service, Governance Evidence Service',
    docs: '/docs',
    openapi: '/openapi.json',
    console: '/console/',
    capture: '/capture',
    health: '/health',
    ready: '/ready',
    apis: { ticketing: '/api/v1', identity: '/v1', governance: '/v1', operator: '/admin/v1' },
    operator_api: operatorApiOn
      ? 'on: /admin/v1 with Authorization: Bearer <ADMIN_TOKEN>'
      : 'off: set ADMIN_TOKEN (16 characters or more) and restart to turn on /admin/v1',
  };
}

/** True when the client lists text/html ahead of JSON (a browser), not for curl's `*\/*` or an API client. */
function prefersHtml(req: FastifyRequest): boolean {
  const accept = String(req.headers.accept ?? '').toLowerCase();
  const html = accept.indexOf('text/html');
  if (html < 0 || /text\/html\s*;\s*q=0(\.0*)?\s*(,|$)/.test(accept)) return false;
  const json = accept.indexOf('application/json');
  return json < 0 || html < json;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function homePage(links: ReturnType<typeof homeLinks>): string {
  const item = (href: string, label: string) => `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></li>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Partner services</title></head>
<body>
<h1>Partner services</h1>
<p>${escapeHtml(links.service)}.</p>
<ul>
${item(links.docs, 'API documentation (/docs)')}
${item(links.openapi, 'OpenAPI document (/openapi.json)')}
${item(links.console, 'Reviewer and operator console (/console/)')}
${item(links.capture, 'Capture page (/capture, opened from a verification’s capture_url)')}
${item(links.ready, 'Readiness (/ready)')}
</ul>
<p>Operator API ${escapeHtml(links.operator_api)}.</p>
</body>
</html>
`;
}

/**
 * `GET /`: a small JSON map of the server (an HTML page for a browser). Left out of the OpenAPI
 * document like /openapi.json: it is a signpost, not part of any API.
 */
export const homeRoute: FastifyPluginAsync = async (app) => {
  const links = homeLinks(Boolean(app.config.ADMIN_TOKEN));
  app.get('/', { schema: { hide: true } }, async (req, reply) => {
    reply.header('vary', 'accept');
    if (prefersHtml(req)) return reply.type('text/html; charset=utf-8').send(homePage(links));
    return reply.type('application/json; charset=utf-8').send(links);
  });
};
