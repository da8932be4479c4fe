/**
 * Measures the machine-readable-zone read rate on the varied generated set (docs/document-reading.md, "Document
 * reading"; scripts/documents/varied-set.ts): per difficulty and kind (TD1 cards read as a
 * verification reads them, front and back; TD2 cards; TD3 passports), how many zones were read
 * with a certain name, how many with the name marked uncertain, how many were not read, and how
 * many were read wrongly: a field outside the name that differs from the truth, or a name that
 * differs while the reader called it certain. Documents printed with a broken check digit and
 * photos with no zone at all (scripts/documents/no-zone.ts) must never be read.
 *
 *   npm run documents:read-rate [-- <documents per difficulty and kind, default 20> [<seed, default 1>]]
 *
 * A new seed draws a new set (holders, layouts and photo settings): measure on seeds the reader
 * was never looked at against, and never change the reader after looking at the seeds reported.
 * Three more tables show, per engine and confidence, what the engines saw where a printed character
 * has a twin the check digits cannot tell from it, what they read for the mixed fields' letters
 * and digits where they read another (the look-alike table, look-alikes.ts, comes from it), and
 * how tall the glyphs of the mixed fields stand between their row's letters and digits (the tables
 * the twin, look-alike and glyph rules come from), and how far the glyphs' shapes prefer the
 * printed characters over what was read (the shape witness's margin comes from it). READ_RATE_DUMP=<file> writes each document's
 * truth, outcome and every pass's text, one JSON line each.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import {
  createDocumentReader,
  DEFAULT_READ_DEADLINE_MS,
  DocumentReadTimeout,
  type CardResult,
  type ReadResult,
} from '../src/recognition/document/reader.js';
import { sidesAgree } from '../src/recognition/document/sides.js';
import { nameOf, withoutName } from '../src/recognition/document/names.js';
import { variedDocumentAt, variedPhotoFor, type Difficulty } from './documents/varied-set.js';
import { mrzLines, type MrzFormat } from './documents/mrz-lines.js';
import { renderDocument, seeded } from './documents/render.js';
import { GlyphHeightTable } from './documents/glyph-table.js';
import { TwinConfidenceTable } from './documents/twin-confidence.js';
import { ConfusionTable } from './documents/confusion-table.js';
import { ShapeMarginTable } from './documents/shape-table.js';
import { noZonePhotos } from './documents/no-zone.js';

const perCell = Number(process.argv[2] ?? 20);
const seed = Number(process.argv[3] ?? 1);
// The pipeline's deadline (reader.ts) turns a slow reading into review; on a machine shared with
// other work a longer one (READ_RATE_DEADLINE_MS) measures what the reader reads, and the run
// counts the readings that took longer than the pipeline's.
const deadlineMs = Number(process.env.READ_RATE_DEADLINE_MS ?? DEFAULT_READ_DEADLINE_MS);
const reader = createDocumentReader({ deadlineMs });
const rows: string[] = [];
const times: number[] = [];
const twins = new TwinConfidenceTable();
const heights = new GlyphHeightTable();
const confusions = new ConfusionTable();
const shapes = new ShapeMarginTable();
// READ_RATE_DUMP=<file>: one JSON line per document (truth, zone, outcome, each pass's text, lines
// with confidences and glyphs, so the pure rules can be run again over it offline) for
// diagnosing the documents not read; a file, as a run's documents would flood the console.
const dumpPath = process.env.READ_RATE_DUMP;
if (dumpPath) writeFileSync(dumpPath, '');
const percent = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;

// Phone photos first: the target that matters most, measured first when a run is cut short.
// READ_RATE_ONLY=<difficulty>: that difficulty only (a tuning experiment on the documents a change is for).
const only = process.env.READ_RATE_ONLY;
for (const difficulty of (['phone photo', 'clean', 'hard'] as Difficulty[]).filter((d) => !only || d === only)) {
  for (const format of ['TD1', 'TD2', 'TD3'] as MrzFormat[]) {
    const counts = { certain: 0, nameUncertain: 0, unread: 0, wrong: 0, sidesDisagree: 0 };
    for (let i = 0; i < perCell; i++) {
      const spec = variedDocumentAt(i, seed * 31 + difficulty.length, format);
      const photo = (side: number) => variedPhotoFor(difficulty, seeded(i * 3 + side + 17 * difficulty.length + 7919 * seed));
      const zoneSide = await renderDocument(spec, format === 'TD1' ? 'back' : 'front', photo(0), i + 1);
      const front = format === 'TD1' ? await renderDocument(spec, 'front', photo(1), i + 2) : undefined;
      const started = performance.now();
      // Past its deadline a verification goes to review (pipeline_error): counted as not read.
      const result = await (
        front ? reader.readCard({ front, back: zoneSide }, { trace: true }) : reader.read([zoneSide], { trace: true })
      ).catch((err: unknown) => {
        if (!(err instanceof DocumentReadTimeout)) throw err;
        return { zone: null, text: '', passes: [], timedOut: true } as ReadResult & { timedOut: true };
      });
      times.push(performance.now() - started);
      const { zone, passes = [] } = result;
      const truth = { format, lines: mrzLines(format, spec.holder) };
      for (const pass of passes) {
        twins.add(`${difficulty} ${format} #${i}`, pass.pass, truth, pass.lines);
        confusions.add(truth, pass.lines);
      }
      heights.add(difficulty, truth, passes[0]?.glyphs);
      // The zone is printed on the first image read (a TD1 card's back).
      shapes.addDocument(
        difficulty,
        `${format} #${i}`,
        truth,
        passes.filter((p) => p.image === 0),
      );
      let outcome: string;
      if (!zone) {
        outcome = 'timedOut' in result ? 'not read (deadline passed)' : 'not read';
        counts.unread++;
      } else if (withoutName(zone) !== withoutName(truth)) {
        outcome = 'READ WRONGLY';
      } else if (result.nameUncertain) {
        outcome = nameOf(zone) === nameOf(truth) ? 'read, name uncertain' : 'read, name uncertain (and wrong)';
        counts.nameUncertain++;
      } else if (nameOf(zone) !== nameOf(truth)) {
        outcome = 'READ WRONGLY (name)';
      } else {
        outcome = 'read';
        counts.certain++;
      }
      if (outcome.startsWith('READ WRONGLY')) {
        counts.wrong++;
        console.error(`wrong reading (${difficulty} ${format} #${i}):\n${zone!.lines.join('\n')}\ntruth:\n${truth.lines.join('\n')}`);
      }
      const sides = format === 'TD1' ? (result as CardResult).sides : undefined;
      if (zone && sides !== undefined && (sides === null || !sidesAgree(zone, sides))) counts.sidesDisagree++;
      if (dumpPath)
        appendFileSync(
          dumpPath,
          `${JSON.stringify({
            difficulty,
            format,
            i,
            outcome,
            truth: truth.lines,
            zone: zone?.lines ?? null,
            nameUncertain: Boolean(result.nameUncertain),
            ms: Math.round(times[times.length - 1]!),
            passes: passes.map((p) => ({ image: p.image, pass: p.pass, legacy: p.legacy, lstm: p.lstm, lines: p.lines, glyphs: p.glyphs })),
          })}\n`,
        );
      // Progress, so a run cut short still shows what it measured.
      console.error(`${difficulty} ${format} #${i}: ${outcome} in ${Math.round(times[times.length - 1]!)} ms`);
    }
    const read = counts.certain + counts.nameUncertain;
    rows.push(
      `| ${difficulty} | ${format} | ${perCell} | ${read} (${percent(read, perCell)}) | ${counts.nameUncertain} | ${counts.unread} | ${counts.wrong} | ${format === 'TD1' ? counts.sidesDisagree : ''} |`,
    );
  }
}

// Broken check digits: a document number whose check digit was printed wrong is never "read".
let brokenRead = 0;
const broken = Math.max(10, perCell);
console.error(`seed ${seed}, ${perCell} documents per difficulty and kind`);
for (let i = 0; i < broken; i++) {
  const format = (['TD1', 'TD2', 'TD3'] as const)[i % 3]!;
  const spec = { ...variedDocumentAt(1000 + i, seed, format), breakCheck: true };
  const image = await renderDocument(
    spec,
    format === 'TD1' ? 'back' : 'front',
    variedPhotoFor('phone photo', seeded(i + 99 + 7919 * seed)),
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
console.log(`seed ${seed}, ${perCell} documents per difficulty and kind\n`);
console.log('| difficulty | kind | documents | read | of them name uncertain | not read | read wrongly | TD1: sides disagree |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
console.log(`| broken check digit (phone photo) | all | ${broken} | ${brokenRead} accepted (must be 0) | | | | |`);
console.log(`| no zone (selfie, noise, blank page, card front) | | ${noZone.length} | ${noZoneRead} read (must be 0) | | | | |`);
console.log(`\nWhat the engines saw where a printed character has an uncheckable twin (every pass made, ${perCell * 9} documents):\n`);
console.log(twins.markdown());
console.log(`\nWhat the engines read for a printed letter or digit of the mixed fields, where they read another (every pass made):\n`);
console.log(confusions.markdown());
console.log(
  `\nWhere the glyphs of the mixed fields stand between their row's letter height (0) and digit height (1), measured on each photo:\n`,
);
console.log(heights.markdown());
console.log(
  `\nHow far each glyph's shape prefers the printed character over what a reading showed there, and over each of its look-alikes (glyph-shapes.ts; the margin is the difference of correlations):\n`,
);
console.log(shapes.markdown());
console.log(
  `\nread time per verification (a TD1 card's two sides together): p50 ${percentile(times, 0.5)} ms, p95 ${percentile(times, 0.95)} ms, max ${percentile(times, 1)} ms (${times.length} verifications)`,
);
console.log(
  `verifications read in more than the pipeline's deadline (${DEFAULT_READ_DEADLINE_MS} ms): ${times.filter((t) => t > DEFAULT_READ_DEADLINE_MS).length}; deadline in this run ${deadlineMs} ms`,
);
console.log(
  `read time per photo with no zone: p50 ${percentile(noZoneTimes, 0.5)} ms, p95 ${percentile(noZoneTimes, 0.95)} ms, max ${percentile(noZoneTimes, 1)} ms (${noZoneTimes.length} photos)`,
);
