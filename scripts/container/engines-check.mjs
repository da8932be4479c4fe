// The recognition engines as an installed tree holds them (docs/operations.md, "Container test"): the face
// workers load Human's and face-api's models on the tfjs WASM backend and analyse the walkthrough's
// passport and a frame, and the document reader reads the passport's zone, each through the
// compiled pools (dist/) exactly as the server runs them; and every file the capture page's pose
// check is served (/capture/models/…) is there. What the image's prune step
// (scripts/prune-image.mjs) removed by mistake fails here: a missing model, .wasm file, tfjs piece
// or Tesseract build ends a load, and a wrong one ends the checks on the answers.
//
//   node scripts/container/engines-check.mjs <app dir (holds dist/ and node_modules/)> <walkthrough fixtures dir>
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [app, fixtures] = process.argv.slice(2);
if (!app || !fixtures) {
  console.error('usage: engines-check.mjs <app dir> <walkthrough fixtures dir>');
  process.exit(2);
}
const compiled = (path) => import(pathToFileURL(join(app, 'dist', path)).href);
const { createFacePool } = await compiled('recognition/faces/pool.js');
const { createDocumentReader } = await compiled('recognition/document/reader.js');
const { captureModelFiles } = await compiled('plugins/web-app.js');
const photo = async (name) => new Uint8Array(await readFile(join(fixtures, name)));
const [passport, front] = await Promise.all([photo('passport.jpg'), photo('front-1.jpg')]);

// The walkthrough's passport and frames show one person: the server's default FACE_MATCH_HIGH
// (0.4, src/config.ts) is the least a working descriptor gives them.
const MATCH_HIGH = 0.4;
// The first load of every model on a busy 2-core machine: generous, never reached when it works.
const DEADLINE_MS = 180_000;

const faces = createFacePool({ workers: 1, timeoutMs: DEADLINE_MS, maxSide: 640 });
const reader = createDocumentReader({ deadlineMs: DEADLINE_MS });
const problems = [];
for (const [name, file] of captureModelFiles().files)
  if (!existsSync(file.path)) problems.push(`no ${name} for the capture page (${file.path})`);
try {
  const [faceResult, reading] = await Promise.all([faces.analyze(async () => [passport, front]), reader.read([passport])]);
  faceResult.images.forEach((image, i) => {
    const face = image.faces[0];
    const name = ['passport.jpg', 'front-1.jpg'][i];
    if (!face) return problems.push(`no face found on ${name} (Human's detector)`);
    // The mesh gives the pose; antispoof and liveness are models of their own (human-config.ts).
    if (face.yaw === null) problems.push(`no head pose on ${name} (Human's face mesh)`);
    if (face.antispoof === null || face.liveness === null) problems.push(`no antispoof or liveness score on ${name}`);
  });
  const similarity = faceResult.similarity[0]?.[1];
  if (typeof similarity !== 'number') problems.push("no face-api descriptor for one of the two photos (face-api's models)");
  else if (similarity < MATCH_HIGH) problems.push(`the same person compared at ${similarity}, under ${MATCH_HIGH}`);
  const holder = reading.zone?.lines[0];
  if (!holder?.includes('ERIKSSON')) problems.push(`the passport's zone was not read (saw ${JSON.stringify(reading.text.slice(0, 90))})`);
  if (problems.length === 0) {
    const face = faceResult.images[0].faces[0];
    console.log(
      `   engines: a face on each photo (antispoof ${face.antispoof}, liveness ${face.liveness}), the same person at ${similarity}; the passport's zone read (${reading.zone.format}, ${holder.slice(5, 30).replace(/<+$/, '')})`,
    );
  }
} catch (err) {
  problems.push(`an engine failed: ${err instanceof Error ? err.stack : String(err)}`);
} finally {
  await Promise.all([faces.close(), reader.close()]);
}
if (problems.length > 0) {
  for (const p of problems) console.error(`   engines: ${p}`);
  process.exit(1);
}
