// `npm run faces:separation`: how well each face description separates the people of the fixture
// set (test/fixtures/faces): Human's `faceres` embedding and face-api's 128-value dlib ResNet
// descriptor (taken from the full-resolution crop of the face Human found). Prints each photo's
// detection and head rotation, then per model the same-person and other-person similarity bands
// and, for candidate thresholds, how many pairs each rule would decide which way. Two settings:
// the photos against each other, and each photo printed as the portrait of a generated passport
// photographed like a phone photo (scripts/documents) against the other photos, which is what a
// verification compares. Small sample: 3 people, 15 photos (see docs/faces.md, "Face checks").
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { loadFaceAnalyzer } from '../src/recognition/faces/analyzer.js';
import { documentAt, photoFor } from './documents/fixture-set.js';
import { renderDocument, seeded } from './documents/render.js';

const dir = join(import.meta.dirname, '..', 'test', 'fixtures', 'faces');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.jpg'))
  .sort();
const started = Date.now();
const analyzer = await loadFaceAnalyzer({ faceres: true });
console.log(`models loaded in ${Date.now() - started} ms\n`);

type Vectors = { embedding: number[] | null; descriptor: number[] | null };
const person = (f: string) => f.split('-')[1]!;
const photos: ({ file: string } & Vectors)[] = [];
const documents: ({ file: string } & Vectors)[] = [];
console.log(
  '| photo | faces | score | box (px) | yaw | pitch | roll | yaw mirrored | antispoof | liveness | ms | on a document: faces, box (px) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const [i, file] of files.entries()) {
  const bytes = readFileSync(join(dir, file));
  const t0 = Date.now();
  const a = await analyzer.analyze(bytes);
  const ms = Date.now() - t0;
  const mirrored = await analyzer.analyze(await sharp(bytes).flop().toBuffer());
  // The photo as the portrait of a passport data page, photographed (fixed seed per photo).
  const spec = { ...documentAt(i, 7), format: 'TD3' as const, portrait: join(dir, file) };
  const page = await renderDocument(spec, 'front', photoFor('phone photo', seeded(500 + i)), 500 + i);
  const d = await analyzer.analyze(page);
  const f = a.faces[0];
  console.log(
    `| ${file} | ${a.face_count} | ${f?.score ?? '–'} | ${f ? `${f.box[2]}×${f.box[3]}` : '–'} | ${f?.yaw ?? '–'} | ${f?.pitch ?? '–'} | ${f?.roll ?? '–'} | ${mirrored.faces[0]?.yaw ?? '–'} | ${f?.antispoof ?? '–'} | ${f?.liveness ?? '–'} | ${ms} | ${d.face_count}, ${d.faces[0] ? `${d.faces[0].box[2]}×${d.faces[0].box[3]}` : '–'} |`,
  );
  photos.push({ file, embedding: a.embedding, descriptor: a.descriptor });
  documents.push({ file, embedding: d.embedding, descriptor: d.descriptor });
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return '0 | – | – | – | – | –';
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!.toFixed(3);
  return `${s.length} | ${q(0)} | ${q(0.25)} | ${q(0.5)} | ${q(0.75)} | ${q(1)}`;
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const share = (n: number, of: number) => `${n}/${of} (${of ? ((100 * n) / of).toFixed(0) : 0} %)`;

const faceres = (a: Vectors, b: Vectors) => (a.embedding && b.embedding ? analyzer.similarity(a.embedding, b.embedding) : null);
const faceApi = (a: Vectors, b: Vectors) =>
  a.descriptor && b.descriptor ? analyzer.descriptorSimilarity(a.descriptor, b.descriptor) : null;
const models = [
  { name: "Human's faceres", sim: faceres },
  { name: 'face-api (dlib ResNet, full-resolution crop)', sim: faceApi },
  {
    name: 'the mean of both',
    sim: (a: Vectors, b: Vectors) => {
      const x = faceres(a, b);
      const y = faceApi(a, b);
      return x === null || y === null ? null : Number(((x + y) / 2).toFixed(3));
    },
  },
];
for (const model of models) {
  const sim = model.sim;
  const same: number[] = [];
  const other: number[] = [];
  for (let i = 0; i < photos.length; i++)
    for (let j = i + 1; j < photos.length; j++) {
      const s = sim(photos[i]!, photos[j]!);
      if (s !== null) (person(photos[i]!.file) === person(photos[j]!.file) ? same : other).push(s);
    }
  // A verification compares the document with every frame and decides on the median: each photo
  // (and each generated document) as the document against the other photos of each person as the frames.
  const medians = (docs: typeof photos) => {
    const sameMedian: number[] = [];
    const otherMedian: number[] = [];
    let missing = 0;
    for (const doc of docs) {
      for (const p of new Set(photos.map((r) => person(r.file)))) {
        const values = photos
          .filter((r) => person(r.file) === p && r.file !== doc.file)
          .map((f) => sim(doc, f))
          .filter((s): s is number => s !== null);
        if (!values.length) {
          missing++;
          continue;
        }
        (p === person(doc.file) ? sameMedian : otherMedian).push(Number(median(values).toFixed(3)));
      }
    }
    return { sameMedian, otherMedian, missing };
  };
  const fromPhotos = medians(photos);
  const fromDocuments = medians(documents);
  console.log(`\n### ${model.name}\n`);
  console.log('| pairs | n | min | p25 | median | p75 | max |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(`| same person | ${stats(same)} |`);
  console.log(`| other person | ${stats(other)} |`);
  console.log(`| same person, median of a photo as the document against the person's other photos | ${stats(fromPhotos.sameMedian)} |`);
  console.log(`| other person, median of a photo as the document against that person's photos | ${stats(fromPhotos.otherMedian)} |`);
  console.log(`| same person, median of a generated passport against the person's other photos | ${stats(fromDocuments.sameMedian)} |`);
  console.log(`| other person, median of a generated passport against that person's photos | ${stats(fromDocuments.otherMedian)} |`);
  if (fromDocuments.missing) console.log(`(no description on ${fromDocuments.missing} document comparisons)`);
  console.log(
    '\n| threshold | same-person pairs below | other-person pairs at or above | same-person medians below (photo / passport) | other-person medians at or above (photo / passport) |',
  );
  console.log('|---|---|---|---|---|');
  for (let t = 0.2; t <= 0.701; t += 0.05) {
    const below = (xs: number[]) => share(xs.filter((s) => s < t).length, xs.length);
    const above = (xs: number[]) => share(xs.filter((s) => s >= t).length, xs.length);
    console.log(
      `| ${t.toFixed(2)} | ${below(same)} | ${above(other)} | ${below(fromPhotos.sameMedian)} / ${below(fromDocuments.sameMedian)} | ${above(fromPhotos.otherMedian)} / ${above(fromDocuments.otherMedian)} |`,
    );
  }
}
