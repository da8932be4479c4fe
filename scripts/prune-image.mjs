// The image's run stage runs this right after `npm ci --omit=dev`, in the same layer (Dockerfile):
// it removes from node_modules what the server never reads, so that the image stays under 500 MB
// (docs/operations.md, "Container test": 853 MB before, 403 MB with it). The production install is 632 MB,
// of which the server loads a small part: source maps alone are 241 MB, and of the recognition
// libraries it loads one Node build each, not their browser bundles, demos and every model. The
// lockfile and `npm ci` stay as they are; this only deletes files after the install.
//
// `npm run test:container` proves the pruned image still works: the engines check
// (scripts/container/engines-check.mjs) loads every face model and both OCR engines from it and
// checks the files the capture page is served; the server's own checks cover the rest.
//
//   node scripts/prune-image.mjs <node_modules dir>
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Files no running server reads, in any package: source maps (read only by debuggers and by
 * Node's --enable-source-maps, which the image does not set) and TypeScript sources and
 * declarations (the image runs compiled JavaScript and holds neither a compiler nor tsx).
 */
const NEVER_READ = /\.(map|tsbuildinfo|ts|mts|cts)$/;

/**
 * Whole packages the image never loads. tsx is a dependency so that the operator commands run
 * from a production checkout (`npm run admin`, `npm run witness` run src/ through it); the image
 * has no src/ and runs dist/, so tsx and its esbuild (and esbuild's platform binary) are dead
 * weight in it. core-js is required only by @tensorflow/tfjs's browser entry with polyfills, not
 * by its Node build.
 */
const UNUSED_PACKAGES = ['tsx', 'esbuild', '@esbuild', 'core-js'];

/**
 * Packages of which the image keeps only their package.json, licence, `main` (the file
 * `require.resolve` answers for them, loaded or not) and the files listed: what the server loads.
 * Every other file is a browser bundle, a demo, sources or a model the server never loads, and so
 * is a package's own node_modules (@tensorflow/tfjs's yargs for its command-line tools; types).
 */
const LOADED_ONLY = {
  // face-api's Node WASM build requires the umbrella @tensorflow/tfjs, whose Node build requires
  // each of the others (layers, data and the WebGL backend included); Human's requires core, the
  // converter and the WASM backend (src/recognition/faces/analyzer.ts, descriptor.ts).
  '@tensorflow/tfjs': [],
  '@tensorflow/tfjs-core': [],
  '@tensorflow/tfjs-converter': [],
  '@tensorflow/tfjs-layers': [],
  '@tensorflow/tfjs-data': [],
  '@tensorflow/tfjs-backend-cpu': [],
  '@tensorflow/tfjs-backend-webgl': [],
  // The three binaries: the backend picks one by what the CPU offers (SIMD, threads), and the
  // capture page is served all three (src/plugins/web-app.ts, captureModelFiles).
  '@tensorflow/tfjs-backend-wasm': [
    'dist/tfjs-backend-wasm.wasm',
    'dist/tfjs-backend-wasm-simd.wasm',
    'dist/tfjs-backend-wasm-threaded-simd.wasm',
  ],
  // The Node WASM build, and the models human-config.ts turns on for the service (detector, mesh,
  // antispoof, liveness; the capture page is served the first two). `faceres` is loaded only by
  // `npm run faces:separation`, which runs from a checkout, not from the image.
  '@vladmandic/human': [
    'dist/human.node-wasm.js',
    ...['blazeface', 'facemesh', 'antispoof', 'liveness'].flatMap((m) => [`models/${m}.json`, `models/${m}.bin`]),
  ],
  // The Node WASM build and the three nets descriptor.ts loads.
  '@vladmandic/face-api': [
    'dist/face-api.node-wasm.js',
    ...['tiny_face_detector_model', 'face_landmark_68_model', 'face_recognition_model'].flatMap((m) => [
      `model/${m}-weights_manifest.json`,
      `model/${m}.bin`,
    ]),
  ],
  // Node loads a build as a .js beside its .wasm, picked by the CPU (relaxed SIMD, SIMD or
  // neither) and the engine (tesseract.js, src/worker-script/node/getCore.js); the *.wasm.js
  // copies with the binary inlined are for browsers.
  'tesseract.js-core': ['index.js'].concat(
    ['', '-simd', '-relaxedsimd'].flatMap((cpu) =>
      ['', '-lstm'].flatMap((lstm) => ['js', 'wasm'].map((ext) => `tesseract-core${cpu}${lstm}.${ext}`)),
    ),
  ),
  // Only the data src/recognition/document/worker.ts reads (4.0.0, gzipped): not the other versions.
  '@tesseract.js-data/eng': ['4.0.0/eng.traineddata.gz'],
};

const root = process.argv[2];
if (!root || !existsSync(join(root, '.package-lock.json'))) {
  console.error('usage: prune-image.mjs <node_modules dir of an npm install>');
  process.exit(2);
}

/** Every file under `dir`, as paths relative to it with / between parts. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() || e.isSymbolicLink())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
}

let removed = 0;
const remove = (path) => {
  rmSync(path, { recursive: true, force: true });
  removed += 1;
};

for (const name of UNUSED_PACKAGES) if (existsSync(join(root, name))) remove(join(root, name));

for (const [name, loaded] of Object.entries(LOADED_ONLY)) {
  const dir = join(root, name);
  // A package missing here means the dependency changed: the list must be revisited, not skipped.
  if (!existsSync(join(dir, 'package.json'))) throw new Error(`prune-image: ${name} is not installed`);
  const { main } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const keep = new Set(['package.json', main.replace(/^\.\//, ''), ...loaded]);
  const files = filesUnder(dir);
  for (const want of keep) if (!files.includes(want)) throw new Error(`prune-image: ${name} has no ${want}`);
  for (const file of files) if (!keep.has(file) && !/^(LICEN[CS]E|NOTICE)/i.test(file)) remove(join(dir, file));
}

for (const file of filesUnder(root)) if (NEVER_READ.test(file)) remove(join(root, file));

// The commands of the packages removed (node_modules/.bin/tsx, say) would point at nothing.
const bin = join(root, '.bin');
if (existsSync(bin)) for (const link of readdirSync(bin)) if (!existsSync(join(bin, link))) rmSync(join(bin, link));

// Folders left empty by the removals.
const emptied = readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => join(e.parentPath, e.name))
  .sort((a, b) => b.length - a.length);
for (const dir of emptied) if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });

console.log(`prune-image: ${removed} files and packages removed from ${root}`);
