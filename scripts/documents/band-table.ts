/**
 * The table MAX_MARKS_BETWEEN_ROWS (src/recognition/document/band.ts) is chosen from (docs/document-reading.md,
 * "Document reading"): on the grey copy the reader looks for the zone on, the band finder is run
 * with no bound on the marks between rows, and for whatever zone-like rows it finds the share of
 * dark-mark pixels in the strip between each two neighbouring rows (the largest of them) is
 * counted, for generated documents (the varied set of the read rate, every difficulty and kind)
 * against photos with no zone (the no-zone set: selfies, noise, blank pages, card fronts) and
 * noise of several kinds and sizes, the 6,000 × 6,600 noise PNG of the hostile uploads among them.
 *
 *   npm run documents:band-table [-- <documents per difficulty and kind, default 10> [<seed, default 1>]]
 *
 * A new seed draws new documents, photos and noise: choose the bound on one seed and check it on
 * others. Also prints how long the band finder (with the bound) took per photo.
 */
import { findZoneRows, marksBetweenZoneRows, MAX_MARKS_BETWEEN_ROWS } from '../../src/recognition/document/band.js';
import { FIND_WIDTH, greyCopy } from '../../src/recognition/document/find-copy.js';
import { noisePng, realJpeg } from '../fixtures/hostile-images.js';
import { png } from '../fixtures/images.js';
import type { MrzFormat } from './mrz-lines.js';
import { noZonePhotos } from './no-zone.js';
import { renderDocument, seeded } from './render.js';
import { variedDocumentAt, variedPhotoFor, type Difficulty } from './varied-set.js';

const perCell = Number(process.argv[2] ?? 10);
const seed = Number(process.argv[3] ?? 1);

interface Group {
  label: string;
  photos: number;
  /** per photo where zone-like rows were found with no bound: the largest share of marks between its rows */
  marks: number[];
  /** per photo: zone found with the bound */
  kept: number;
  findMs: number[];
}

const groups: Group[] = [];
async function measure(label: string, images: AsyncIterable<Buffer> | Iterable<Buffer | Promise<Buffer>>): Promise<void> {
  const group: Group = { label, photos: 0, marks: [], kept: 0, findMs: [] };
  groups.push(group);
  for await (const image of images) {
    const grey = await greyCopy(image, FIND_WIDTH);
    group.photos++;
    const unbounded = findZoneRows(grey, Number.POSITIVE_INFINITY);
    if (unbounded) group.marks.push(Math.max(...marksBetweenZoneRows(grey, unbounded)));
    const started = performance.now();
    if (findZoneRows(grey)) group.kept++;
    group.findMs.push(performance.now() - started);
  }
  console.error(`${label}: ${group.photos} photos measured`);
}

async function* documents(difficulty: Difficulty): AsyncIterable<Buffer> {
  for (const format of ['TD1', 'TD2', 'TD3'] as MrzFormat[])
    for (let i = 0; i < perCell; i++) {
      const spec = variedDocumentAt(i, seed * 31 + difficulty.length, format);
      const photo = variedPhotoFor(difficulty, seeded(i * 3 + 17 * difficulty.length + 7919 * seed));
      yield renderDocument(spec, format === 'TD1' ? 'back' : 'front', photo, i + 1);
    }
}

/** Noise as a camera or an attacker sends it, `perCell` of each kind, drawn from the seed. */
function* noise(kind: 'colour' | 'one-bit' | 'coarse'): Iterable<Buffer | Promise<Buffer>> {
  const sizes = {
    colour: [
      [1200, 900],
      [2400, 1800],
      [3000, 4000],
    ],
    'one-bit': [
      [2000, 2200],
      [6000, 6600],
    ],
    coarse: [[1600, 1200]],
  }[kind];
  for (let i = 0; i < perCell; i++) {
    const [width, height] = sizes[i % sizes.length]!;
    const noiseSeed = seed * 1009 + i;
    if (kind === 'colour') yield png(width!, height!, { seed: noiseSeed, noisyRows: height });
    else if (kind === 'one-bit') yield noisePng(width!, height!, noiseSeed);
    else yield realJpeg(width!, height!, noiseSeed);
  }
}

for (const difficulty of ['clean', 'phone photo', 'hard'] as Difficulty[]) await measure(`document, ${difficulty}`, documents(difficulty));
await measure(
  'no-zone set (selfies, noise, blank pages, card fronts)',
  (await noZonePhotos(seed)).map((p) => p.image),
);
await measure('colour noise, 1,200 to 4,000 px', noise('colour'));
await measure('one-bit noise, 2,000 × 2,200 and 6,000 × 6,600', noise('one-bit'));
await measure('coarse noise JPEG (16 px cells), 1,600 × 1,200', noise('coarse'));

const percent = (x: number) => `${(100 * x).toFixed(1)} %`;
const at = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const bins = [0.002, 0.01, MAX_MARKS_BETWEEN_ROWS, 0.24];
console.log(`seed ${seed}, ${perCell} documents per difficulty and kind, ${perCell} noise images per kind\n`);
console.log(
  `| photos | count | zone-like rows found (no bound) | marks between rows: min / median / max | ≤ 0.2 % | ≤ 1 % | ≤ ${percent(MAX_MARKS_BETWEEN_ROWS)} | ≤ 24 % | > 24 % | zone found (≤ ${percent(MAX_MARKS_BETWEEN_ROWS)}) | band finder p95 ms |`,
);
console.log('|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|');
for (const g of groups) {
  const counts = bins.map((bound, i) => g.marks.filter((m) => m <= bound && (i === 0 || m > bins[i - 1]!)).length);
  const over = g.marks.filter((m) => m > bins[bins.length - 1]!).length;
  const spread = g.marks.length ? [Math.min(...g.marks), at(g.marks, 0.5)!, Math.max(...g.marks)].map(percent).join(' / ') : '—';
  console.log(
    `| ${g.label} | ${g.photos} | ${g.marks.length} | ${spread} | ${counts.join(' | ')} | ${over} | ${g.kept} | ${Math.round(at(g.findMs, 0.95) ?? 0)} |`,
  );
}
