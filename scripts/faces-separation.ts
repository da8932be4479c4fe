// `npm run faces:separation`: how well the face description model separates the people of the
// fixture set (test/fixtures/faces). Prints each photo's detection and head rotation, then the
// same-person and other-person similarity bands and, for candidate thresholds, how many pairs
// each rule would decide which way. Small sample: 3 people, 15 photos (see the README, "Face checks").
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { loadFaceAnalyzer } from '../src/identity/faces/analyzer.js';

const dir = join(import.meta.dirname, '..', 'test', 'fixtures', 'faces');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.jpg'))
  .sort();
const started = Date.now();
const analyzer = await loadFaceAnalyzer();
console.log(`models loaded in ${Date.now() - started} ms\n`);

const person = (f: string) => f.split('-')[1]!;
const rows: { file: string; embedding: number[] | null }[] = [];
console.log('| photo | faces | score | box (px) | yaw | pitch | roll | yaw mirrored | antispoof | liveness | ms |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const file of files) {
  const bytes = readFileSync(join(dir, file));
  const t0 = Date.now();
  const a = await analyzer.analyze(bytes);
  const ms = Date.now() - t0;
  const mirrored = await analyzer.analyze(await sharp(bytes).flop().toBuffer());
  const f = a.faces[0];
  console.log(
    `| ${file} | ${a.face_count} | ${f?.score ?? '–'} | ${f ? `${f.box[2]}×${f.box[3]}` : '–'} | ${f?.yaw ?? '–'} | ${f?.pitch ?? '–'} | ${f?.roll ?? '–'} | ${mirrored.faces[0]?.yaw ?? '–'} | ${f?.antispoof ?? '–'} | ${f?.liveness ?? '–'} | ${ms} |`,
  );
  rows.push({ file, embedding: a.embedding });
}

const same: number[] = [];
const other: number[] = [];
for (let i = 0; i < rows.length; i++)
  for (let j = i + 1; j < rows.length; j++) {
    const a = rows[i]!;
    const b = rows[j]!;
    if (!a.embedding || !b.embedding) continue;
    (person(a.file) === person(b.file) ? same : other).push(analyzer.similarity(a.embedding, b.embedding));
  }
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!.toFixed(3);
  return `${s.length} | ${q(0)} | ${q(0.25)} | ${q(0.5)} | ${q(0.75)} | ${q(1)}`;
};
console.log('\n| pairs | n | min | p25 | median | p75 | max |');
console.log('|---|---|---|---|---|---|---|');
console.log(`| same person | ${stats(same)} |`);
console.log(`| other person | ${stats(other)} |`);

// A verification compares the document with every frame and decides on the median: simulate
// each photo as the document against the other photos of each person as the frames.
const sim = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
  a.embedding && b.embedding ? analyzer.similarity(a.embedding, b.embedding) : 0;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const sameMedian: number[] = [];
const otherMedian: number[] = [];
for (const doc of rows) {
  for (const p of new Set(rows.map((r) => person(r.file)))) {
    const frames = rows.filter((r) => person(r.file) === p && r !== doc);
    (p === person(doc.file) ? sameMedian : otherMedian).push(Number(median(frames.map((f) => sim(doc, f))).toFixed(3)));
  }
}
console.log(`| same person, median of a document against the person's other photos | ${stats(sameMedian)} |`);
console.log(`| other person, median of a document against that person's photos | ${stats(otherMedian)} |`);

console.log(
  '\n| threshold | same-person pairs below | other-person pairs at or above | same-person medians below | other-person medians at or above |',
);
console.log('|---|---|---|---|---|');
const share = (n: number, of: number) => `${n}/${of} (${((100 * n) / of).toFixed(0)} %)`;
for (let t = 0.25; t <= 0.651; t += 0.05) {
  const pairs = `${share(same.filter((s) => s < t).length, same.length)} | ${share(other.filter((s) => s >= t).length, other.length)}`;
  const medians = `${share(sameMedian.filter((s) => s < t).length, sameMedian.length)} | ${share(otherMedian.filter((s) => s >= t).length, otherMedian.length)}`;
  console.log(`| ${t.toFixed(2)} | ${pairs} | ${medians} |`);
}
