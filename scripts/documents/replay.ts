/**
 * Replays a read-rate run's dumped passes through the reader's current rules (passes.ts; no OCR):
 *
 *   READ_RATE_DUMP=run.jsonl npm run documents:read-rate -- 10 11
 *   npx tsx scripts/documents/replay.ts run.jsonl
 *
 * Per difficulty: how many documents the rules read now, with the name uncertain, not, and
 * wrongly (as scripts/document-read-rate.ts counts them), and each document whose outcome changed.
 * Only the passes the run made are there: a document the run read in its first passes and the
 * rules now leave open after them shows as "not read (passes missing)". For tuning seeds only;
 * the reported read rate comes from the read-rate script.
 */
import { readFileSync } from 'node:fs';
import { nameOf, withoutName } from '../../src/recognition/document/names.js';
import { passRead, settle, type PassRead } from '../../src/recognition/document/passes.js';
import type { ZoneReading } from '../../src/recognition/document/zone-layout.js';
import type { PassTrace } from '../../src/recognition/document/worker.js';
import { ShapeMarginTable } from './shape-table.js';

interface Dumped {
  difficulty: string;
  format: ZoneReading['format'];
  i: number;
  outcome: string;
  truth: string[];
  passes: Pick<PassTrace, 'image' | 'pass' | 'legacy' | 'lstm' | 'lines' | 'glyphs'>[];
}

/** The zone the rules read from the dumped passes, image by image as the worker reads them, or why none. */
function replay(d: Dumped): { zone: ZoneReading; nameUncertain: boolean } | 'not read' | 'not read (passes missing)' {
  const images = [...new Set(d.passes.map((p) => p.image))];
  for (const image of images) {
    const reads: PassRead[] = [];
    const passes = d.passes.filter((p) => p.image === image);
    for (const p of passes) {
      reads.push(passRead(p.legacy, p.lstm, p.lines, p.glyphs));
      const settled = settle(reads);
      if (settled && 'uncertain' in settled) break;
      if (settled) return { zone: settled.certain, nameUncertain: settled.nameUncertain };
    }
    // The worker reads five passes per image with a zone found (three of the zone, two of the page).
    if (passes.length < 5 && !d.outcome.startsWith('not read')) return 'not read (passes missing)';
  }
  return 'not read';
}

function outcomeOf(d: Dumped): string {
  const result = replay(d);
  if (typeof result === 'string') return result;
  const truth = { format: d.format, lines: d.truth };
  if (withoutName(result.zone) !== withoutName(truth)) return 'READ WRONGLY';
  if (result.nameUncertain) return nameOf(result.zone) === nameOf(truth) ? 'read, name uncertain' : 'read, name uncertain (and wrong)';
  return nameOf(result.zone) === nameOf(truth) ? 'read' : 'READ WRONGLY (name)';
}

const dumped = readFileSync(process.argv[2]!, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Dumped);
const shapes = new ShapeMarginTable();
for (const d of dumped)
  shapes.addDocument(
    d.difficulty,
    `${d.format} #${d.i}`,
    { format: d.format, lines: d.truth },
    d.passes.filter((p) => p.image === 0),
  );
const counts = new Map<string, { documents: number; read: number; nameUncertain: number; wrong: number }>();
for (const d of dumped) {
  const outcome = outcomeOf(d);
  const c = counts.get(d.difficulty) ?? { documents: 0, read: 0, nameUncertain: 0, wrong: 0 };
  c.documents++;
  if (outcome.startsWith('read')) c.read++;
  if (outcome.startsWith('read, name uncertain')) c.nameUncertain++;
  if (outcome.startsWith('READ WRONGLY')) c.wrong++;
  counts.set(d.difficulty, c);
  if (outcome !== d.outcome) console.log(`${d.difficulty} ${d.format} #${d.i}: ${d.outcome} → ${outcome}`);
}
console.log('\n| difficulty | documents | read | of them name uncertain | read wrongly |\n|---|---:|---:|---:|---:|');
for (const [difficulty, c] of counts)
  console.log(
    `| ${difficulty} | ${c.documents} | ${c.read} (${((100 * c.read) / c.documents).toFixed(1)} %) | ${c.nameUncertain} | ${c.wrong} |`,
  );
console.log(`\nThe shape witness's margins (scripts/documents/shape-table.ts):\n\n${shapes.markdown()}`);
