// The import graph's floors (issue 31), checked by `npm run lint:imports` in CI over src/,
// bench/ and web/ (the benchmark stands outside the floors: it may import src/ and scripts/, never
// test/; the browser app's own rules are at the end).
//
//   ground     src/lib, src/db, src/config.ts, src/tracing: words and plumbing every floor uses
//   http       src/plugins: the HTTP layer (envelope, errors, headers, health), over the ground only
//   shared     auth, profiles, idempotency, webhooks, jobs, signing-keys, blobs, metrics, at-rest, recognition (the
//              engines that read documents and faces from image bytes): the
//              mechanisms the APIs share, which know no API
//   apis       ticketing, identity, governance and the operator API (admin)
//   top        app.ts, compose.ts (the composition root), server.ts, src/cli, src/docs: assemble the APIs or describe them
//
// An import runs from a floor to the same floor or one below, never up, and no module imports
// itself back through a circle. An API reaches another API only through its public face (the
// service, its views, schemas and errors), and only the operator API does so.
const ground = '^src/(lib|db|tracing)/|^src/config[.]ts$';
const http = '^src/plugins/';
const shared = '^src/(auth|profiles|idempotency|webhooks|jobs|signing-keys|blobs|metrics|at-rest|recognition)/';
const apis = '^src/(ticketing|identity|governance|admin)/';
const top = '^src/(cli|docs)/|^src/(app|compose|server|startup-lines|decorations)[.]ts$';

// What the browser app (web/) may import from src/: the pure modules listed, and why, in
// scripts/shared-with-the-browser.cjs (the rule 'shared-with-the-browser-stays-pure' keeps them pure).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- dependency-cruiser loads its config as CommonJS: require is how it reads a file
const sharedWithTheBrowser = require('./scripts/shared-with-the-browser.cjs');
const sharedWithTheBrowserPath = sharedWithTheBrowser.map((file) => `^${file.replace(/[.]/g, '[.]')}$`).join('|');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports has no floor: each module of it depends on itself.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'ground-stays-down',
      severity: 'error',
      comment: 'The ground floor imports only the ground floor.',
      from: { path: ground },
      to: { path: `${http}|${shared}|${apis}|${top}` },
    },
    {
      name: 'http-layer-over-ground-only',
      severity: 'error',
      comment: 'plugins/ is the HTTP layer: it knows the ground floor, not the mechanisms or the APIs above it.',
      from: { path: http },
      to: { path: `${shared}|${apis}|${top}` },
    },
    {
      name: 'shared-knows-no-api',
      severity: 'error',
      comment: 'The shared mechanisms serve every API and know none of them: each API registers its policy with them.',
      from: { path: shared },
      to: { path: `${apis}|${top}` },
    },
    {
      name: 'apis-stay-below-the-assembly',
      severity: 'error',
      comment: 'An API does not import the app that assembles it, nor the CLI or the documentation built over it.',
      from: { path: apis },
      to: { path: top },
    },
    {
      name: 'partner-apis-are-separate',
      severity: 'error',
      comment: 'Ticketing, identity and governance do not import one another or the operator API.',
      from: { path: '^src/(ticketing|identity|governance)/' },
      to: { path: '^src/(ticketing|identity|governance|admin)/', pathNot: '^src/$1/' },
    },
    {
      name: 'operator-api-through-public-faces',
      severity: 'error',
      comment:
        "The operator API reaches another API's service, views, schemas and errors (and identity's operator-case, the operator's own service for a verification), never its repository, routes or plugin.",
      from: { path: '^src/admin/' },
      to: {
        path: '^src/(ticketing|identity|governance)/',
        pathNot:
          '^src/(ticketing|identity|governance)/(service|assembly|views|schemas|errors)[.]ts$|^src/identity/capture/url[.]ts$|^src/identity/operator-case[.]ts$',
      },
    },
    {
      name: 'worker-threads-load-their-own-module',
      severity: 'error',
      comment:
        'A worker module (recognition/document, recognition/faces) starts its models when it loads: only its pool loads it, in a thread. A value imported on the main thread would start them on the event loop and keep the process alive after close; its types are fine.',
      from: {},
      to: { path: '^src/recognition/(document|faces)/worker[.]ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'bench-not-from-test',
      severity: 'error',
      comment: 'The benchmark runs outside the test suite: what both need lives in src/ or scripts/.',
      from: { path: '^bench/' },
      to: { path: '^test/' },
    },
    {
      name: 'web-imports-from-src-only-what-it-shares',
      severity: 'error',
      comment:
        'The browser app imports from src/ only the pure modules listed in sharedWithTheBrowser (what the capture page and the server must agree on); anything else of the server stays on the server.',
      from: { path: '^web/' },
      to: { path: '^src/', pathNot: sharedWithTheBrowserPath },
    },
    {
      name: 'shared-with-the-browser-stays-pure',
      severity: 'error',
      comment:
        "A module the browser app imports from src/ imports nothing but types: a value import would pull the server's code or libraries into the browser bundle.",
      from: { path: sharedWithTheBrowserPath },
      to: { dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'src-never-imports-web',
      severity: 'error',
      comment: 'The server serves the built web app (dist/web) as files; no server module imports its sources.',
      from: { path: '^src/' },
      to: { path: '^web/' },
    },
    {
      name: 'web-apps-share-through-web-shared',
      severity: 'error',
      comment:
        'The consoles and the capture page are separate apps: what both use (the typed client, the QR code, the base sheet) lives in web/shared/.',
      from: { path: '^web/(console|capture)/' },
      to: { path: '^web/(console|capture)/', pathNot: '^web/$1/' },
    },
    {
      name: 'operator-screens-assembled-by-main-only',
      severity: 'error',
      comment:
        "The operator's screens (web/console/operator/) use the console's pieces beside main.tsx; of those, only main.tsx (which routes to the screens) imports them back, so the folders make no loop.",
      from: { path: '^web/console/[^/]+$', pathNot: '^web/console/main[.]tsx$' },
      to: { path: '^web/console/operator/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve to a file.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
