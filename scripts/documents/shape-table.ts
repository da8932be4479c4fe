/**
 * The measured table the shape witness's margin is chosen from (docs/document-reading.md,
 * "Document reading", step 6; `SHAPE_MARGIN` in src/recognition/document/glyph-shapes.ts): for
 * every position of a true zone where some engine's reading in some pass showed another character
 * (a contest, the class of the place applied as the certainty rule applies it), how far the glyph's
 * shape prefers the printed character over the one read (the margin; negative where the shape
 * prefers the misreading), per difficulty, outside the name and in it; and the same for every
 * printed glyph against each of its look-alikes (look-alikes.ts), read or not, which shows how far
 * the shape ever prefers a look-alike over the printed character. Last, against each pair's own
 * margin (glyph-shapes.ts, shapeMargin): the printed glyphs that came closest to resembling another
 * character its place allows by that pair's margin, which on photos the margins were not chosen on
 * checks them.
 */
import { SHAPE_MARGIN, preference, shapeMargin } from '../../src/recognition/document/glyph-shapes.js';
import { glyphsByPlace, type Likeness, type ZoneGlyph } from '../../src/recognition/document/glyph-heights.js';
import { inName } from '../../src/recognition/document/certainty.js';
import { readAlike } from '../../src/recognition/document/look-alikes.js';
import { alignedIndices, bestMatchIndex, FILLER_LIKE, forced } from '../../src/recognition/document/repair.js';
import { classHolds, zoneShape, type FieldClass, type ZoneReading } from '../../src/recognition/document/zone-layout.js';
import type { EngineLines } from '../../src/recognition/document/twins.js';

const ALPHABET = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const STEPS = [0.05, 0.1, 0.15, 0.2];

interface Margins {
  /** pairs (position, character read) whose glyph was measured: the printed character's margin over the one read */
  margins: number[];
  /** pairs whose glyph said nothing */
  unmeasured: number;
  /** the worst pairs (most negative margins), for the report */
  worst: { margin: number; label: string }[];
}

const empty = (): Margins => ({ margins: [], unmeasured: 0, worst: [] });

/** A printed glyph's preference for another character, against that pair's margin. */
interface Approach {
  label: string;
  preference: number;
  margin: number;
}

export class ShapeMarginTable {
  private readonly rows = new Map<string, Margins>();
  /** per difficulty: glyphs compared with every other character, those at or past their pair's margin, and the closest */
  private readonly approaches = new Map<string, { compared: number; reached: number; closest: Approach[] }>();

  private approach(difficulty: string, a: Approach): void {
    const row = this.approaches.get(difficulty) ?? { compared: 0, reached: 0, closest: [] };
    this.approaches.set(difficulty, row);
    row.compared++;
    if (a.preference >= a.margin) row.reached++;
    row.closest.push(a);
    row.closest.sort((x, y) => y.preference - y.margin - (x.preference - x.margin));
    row.closest.length = Math.min(row.closest.length, 3);
  }

  private add(key: string, margin: number | undefined, label: string): void {
    const row = this.rows.get(key) ?? empty();
    this.rows.set(key, row);
    if (margin === undefined) {
      row.unmeasured++;
      return;
    }
    row.margins.push(margin);
    row.worst.push({ margin, label });
    row.worst.sort((a, b) => a.margin - b.margin);
    row.worst.length = Math.min(row.worst.length, 3);
  }

  /** One document: its true zone, and each pass made over the image its zone was read from (its engines' lines and the glyphs measured there). */
  addDocument(difficulty: string, label: string, truth: ZoneReading, passes: { lines: EngineLines; glyphs?: ZoneGlyph[][] }[]): void {
    const glyphs = passes.find((p) => p.glyphs)?.glyphs;
    const shape = zoneShape(truth.format);
    const places = truth.lines.map((line, row) =>
      glyphs?.length === truth.lines.length ? glyphsByPlace(glyphs[row]!, line.length) : null,
    );
    const likenessAt = (row: number, column: number): Likeness | undefined => places[row]?.[column]?.likeness;
    // Every printed letter and digit against each of its look-alikes; and those of the fields that
    // may hold letters and digits against the best other letter or digit.
    truth.lines.forEach((line, row) =>
      [...line].forEach((char, column) => {
        if (char === '<') return;
        const likeness = likenessAt(row, column);
        for (const other of ALPHABET.filter((x) => readAlike(x, char)))
          this.add(`${difficulty}|every glyph vs its look-alikes`, preference(likeness, char, other), `${label} ${char} vs ${other}`);
        // Only the characters the place's class holds: the rules read a letter in a date or check
        // digit as its digit, a digit in a country code or name as its letter.
        if (likeness?.[char] !== undefined)
          for (const other of ALPHABET.filter((x) => x !== char && likeness[x] !== undefined && classHolds(shape[row]![column]!, x)))
            this.approach(difficulty, {
              label: `${label} ${char} vs ${other}`,
              preference: likeness[other]! - likeness[char],
              margin: shapeMargin(char, other),
            });
        if (shape[row]![column] !== 'x' && shape[row]![column] !== 'o') return;
        const rival = Object.entries(likeness ?? {})
          .filter(([c]) => c !== char && c !== '<')
          .sort((a, b) => b[1] - a[1])[0]?.[0];
        this.add(
          `${difficulty}|mixed fields' glyphs vs the best other`,
          rival === undefined ? undefined : preference(likeness, char, rival),
          `${label} ${char} vs ${rival}`,
        );
      }),
    );
    // The contests: what some reading showed in place of a printed character.
    const contests = new Set<string>();
    for (const pass of passes)
      for (const engine of ['legacy', 'lstm'] as const) {
        const texts = pass.lines[engine].map((l) => l.text);
        truth.lines.forEach((line, row) => {
          const match = bestMatchIndex(line, texts);
          if (match < 0) return;
          alignedIndices(line, texts[match]!).forEach((at, column) => {
            const char = line[column]!;
            if (at === undefined || char === '<') return;
            const raw = texts[match]![at]!;
            const cls = (shape[row]![column] === 'o' ? 'x' : shape[row]![column]) as FieldClass;
            const seen = raw === '<' ? raw : forced(raw, cls);
            if (seen === char || seen === '<' || (engine === 'lstm' && FILLER_LIKE.has(seen) && char === '<')) return;
            contests.add(`${row}:${column}:${seen}`);
          });
        });
      }
    for (const contest of contests) {
      const [row, column, seen] = contest.split(':') as [string, string, string];
      const char = truth.lines[Number(row)]![Number(column)]!;
      const where = inName(truth.format, Number(row), Number(column)) ? 'contests in the name' : 'contests outside the name';
      this.add(`${difficulty}|${where}`, preference(likenessAt(Number(row), Number(column)), char, seen), `${label} ${char} read ${seen}`);
    }
  }

  /** The table as Markdown. */
  markdown(): string {
    const out = [
      `| difficulty | positions | pairs | no measure | shape for the printed | shape for the other | largest margin for the other | ${STEPS.map((s) => `margin ≥ ${s}`).join(' | ')} |`,
      `|---|---|---:|---:|---:|---:|---:|${STEPS.map(() => '---:').join('|')}|`,
    ];
    for (const [key, r] of [...this.rows].sort(([a], [b]) => a.localeCompare(b))) {
      const [difficulty, where] = key.split('|');
      const against = r.margins.filter((m) => m < 0);
      out.push(
        `| ${difficulty} | ${where} | ${r.margins.length + r.unmeasured} | ${r.unmeasured} | ${r.margins.filter((m) => m > 0).length} | ${against.length} | ${against.length ? (-Math.min(...against)).toFixed(3) : '–'} | ${STEPS.map((s) => r.margins.filter((m) => m >= s).length).join(' | ')} |`,
      );
    }
    const worst = [...this.rows].flatMap(([key, r]) =>
      r.worst.filter((w) => w.margin < 0).map((w) => `${key.split('|')[0]}: ${w.label} (${w.margin.toFixed(3)})`),
    );
    const approaches = [...this.approaches].map(
      ([difficulty, a]) =>
        `${difficulty}: ${a.reached} of ${a.compared} (closest: ${a.closest.map((c) => `${c.label} ${c.preference.toFixed(3)} against ${c.margin.toFixed(3)}`).join('; ')})`,
    );
    return `${out.join('\n')}\n\nThe shape's largest preferences for another character: ${worst.join('; ') || 'none'}. The margin used: each pair's own (shapeMargin), ${SHAPE_MARGIN} for a pair measured too seldom.\n\nPrinted glyphs that resembled another character more by that pair's margin (must be none): ${approaches.join('; ')}.`;
  }
}
