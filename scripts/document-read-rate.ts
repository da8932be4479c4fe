/**
 * Measures the machine-readable-zone read rate on generated documents (README, "Document
 * reading"): per difficulty, how many zones were read exactly, how many were not read, and how
 * many were read wrongly (check digits holding over text that differs from the truth), plus
 * documents printed with a broken check digit and photos with no zone at all (scripts/documents/
 * no-zone.ts), neither of which must ever be read, with the no-zone photos' read time.
 *
 *   npm run documents:read-rate [-- <documents per difficulty, default 60> [<seed, default 1>]]
 *
 * A new seed draws a new set (holders, layouts and photo settings), to measure on documents the
 * reader was never looked at against. A second table shows, per engine and confidence, what the
 * engines saw where a printed character has a twin the check digits cannot tell from it (the
 * table the twin rules are chosen from); a third, how tall the glyphs of the mixed fields stand
 * between their row's letters and digits (the table the glyph-height witness is chosen from).
 */
import { createDocumentReader } from '../src/identity/document/reader.js';
import { documentAt, photoFor, type Difficulty } from './documents/fixture-set.js';
import { mrzLines } from './documents/mrz-lines.js';
import { renderDocument, seeded } from './documents/render.js';
import { GlyphHeightTable } from './documents/glyph-table.js';
import { TwinConfidenceTable } from './documents/twin-confidence.js';
import { noZonePhotos } from './documents/no-zone.js';

/** The zone without the holder's name, which no check digit covers. */
const withoutNames = (lines: string[]) => (lines.length === 3 ? [lines[0], lines[1]] : [lines[0]!.slice(0, 5), lines[1]]).join('\n');

const perDifficulty = Number(process.argv[2] ?? 60);
const seed = Number(process.argv[3] ?? 1);
const reader = createDocumentReader();
const rows: string[] = [];
const times: number[] = [];
const twins = new TwinConfidenceTable();
const heights = new GlyphHeightTable();

// Phone photos first: the target that matters most, measured first when a run is cut short.
for (const difficulty of ['phone photo', 'clean', 'hard'] as Difficulty[]) {
  let read = 0;
  let unread = 0;
  let wrong = 0;
  let nameOnly = 0;
  for (let i = 0; i < perDifficulty; i++) {
    const spec = documentAt(i, difficulty.length * seed);
    const photo = photoFor(difficulty, seeded(i + 17 * difficulty.length + 7919 * (seed - 1)));
    const image = await renderDocument(spec, spec.format === 'TD1' ? 'back' : 'front', photo, i + 1);
    const started = performance.now();
    const { zone, passes = [] } = await reader.read([image], { trace: true });
    times.push(performance.now() - started);
    const truthLines = mrzLines(spec.format, spec.holder);
    for (const pass of passes) twins.add(`${difficulty} #${i}`, pass.pass, { format: spec.format, lines: truthLines }, pass.lines);
    heights.add(difficulty, { format: spec.format, lines: truthLines }, passes[0]?.glyphs);
    const truth = truthLines.join('\n');
    const outcome = !zone
      ? 'not read'
      : zone.lines.join('\n') === truth
        ? 'read exactly'
        : withoutNames(zone.lines) === withoutNames(truth.split('\n'))
          ? 'name differs only'
          : 'READ WRONGLY';
    // Progress, so a run cut short still shows what it measured.
    console.error(`${difficulty} #${i}: ${outcome} in ${Math.round(times[times.length - 1]!)} ms`);
    if (!zone) unread++;
    else if (outcome === 'read exactly') read++;
    else if (outcome === 'name differs only') nameOnly++;
    else {
      wrong++;
      console.error(`wrong reading (${difficulty} #${i}):\n${zone.lines.join('\n')}\ntruth:\n${truth}`);
    }
  }
  rows.push(
    `| ${difficulty} | ${perDifficulty} | ${read} (${((100 * read) / perDifficulty).toFixed(1)} %) | ${nameOnly} | ${unread} | ${wrong} |`,
  );
}

// Broken check digits: a document number whose check digit was printed wrong is never "read".
let brokenRead = 0;
const broken = Math.max(10, Math.round(perDifficulty / 3));
console.error(`seed ${seed}, ${perDifficulty} documents per difficulty`);
for (let i = 0; i < broken; i++) {
  const spec = { ...documentAt(1000 + i, seed), breakCheck: true };
  const image = await renderDocument(
    spec,
    spec.format === 'TD1' ? 'back' : 'front',
    photoFor('phone photo', seeded(i + 99 + 7919 * (seed - 1))),
    i + 1,
  );
  const accepted = Boolean((await reader.read([image])).zone);
  console.error(`broken check digit #${i}: ${accepted ? 'ACCEPTED' : 'refused'}`);
  if (accepted) brokenRead++;
}
// Photos with no zone at all (a selfie sent as the document, noise, a blank page, a card's front):
// never read, and decided fast, as each goes to review.
const noZoneTimes: number[] = [];
let noZoneRead = 0;
const noZone = await noZonePhotos(seed);
for (const { label, image } of noZone) {
  const started = performance.now();
  const { zone } = await reader.read([image]);
  noZoneTimes.push(performance.now() - started);
  console.error(`no zone, ${label}: ${zone ? 'READ' : 'not read'} in ${Math.round(noZoneTimes[noZoneTimes.length - 1]!)} ms`);
  if (zone) noZoneRead++;
}
await reader.close();

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!.toFixed(0);
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(0);
console.log('| difficulty | documents | read exactly | name differs only | not read | read wrongly |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
console.log(`| broken check digit (phone photo) | ${broken} | ${brokenRead} accepted (must be 0) | | |`);
console.log(`| no zone (selfie, noise, blank page, card front) | ${noZone.length} | ${noZoneRead} read (must be 0) | | | |`);
console.log(
  `\nWhat the engines saw where a printed character has an uncheckable twin (every pass made, ${perDifficulty * 3} documents):\n`,
);
console.log(twins.markdown());
console.log(
  `\nWhere the glyphs of the mixed fields stand between their row's letter height (0) and digit height (1), measured on each photo:\n`,
);
console.log(heights.markdown());
for (const t of twins.twins)
  console.error(
    `twin read: ${t.document} (${t.pass}) ${t.engine} saw ${t.seen} for ${t.char} at ${t.confidence}; ${t.other?.engine ?? 'the other engine'} saw ${t.other?.seen ?? 'nothing'} at ${t.other?.confidence ?? '-'}`,
  );
console.log(`\nread time per document: p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${pct(0.999)} ms (${times.length} documents)`);
console.log(
  `read time per photo with no zone: p50 ${percentile(noZoneTimes, 0.5)} ms, p95 ${percentile(noZoneTimes, 0.95)} ms, max ${percentile(noZoneTimes, 1)} ms (${noZoneTimes.length} photos)`,
);
