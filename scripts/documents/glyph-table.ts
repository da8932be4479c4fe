/**
 * The measured table the glyph-height witness is chosen from (docs/document-reading.md, "Document reading";
 * `DIGIT_FROM` in src/recognition/document/glyph-heights.ts): for every letter and digit of a true
 * zone's mixed fields (document number, optional data), where its glyph stands between its row's
 * letter height (0) and digit height (1), per difficulty, and how many documents gave no measure
 * (the digits not clearly taller, the heights scattered, or the glyphs not matching the rows).
 */
import { DIGIT_FROM, glyphScale, type ZoneGlyph } from '../../src/recognition/document/glyph-heights.js';
import { zoneShape, type ZoneReading } from '../../src/recognition/document/zone-layout.js';

interface Row {
  documents: number;
  unmeasured: number;
  digits: number[];
  letters: number[];
}

export class GlyphHeightTable {
  private readonly rows = new Map<string, Row>();

  /** Adds one document: its true zone and the glyphs the reader measured on its photo (none when no zone was found). */
  add(difficulty: string, truth: ZoneReading, glyphs: ZoneGlyph[][] | undefined): void {
    const row = this.rows.get(difficulty) ?? { documents: 0, unmeasured: 0, digits: [], letters: [] };
    this.rows.set(difficulty, row);
    row.documents++;
    const shape = zoneShape(truth.format);
    const scale = glyphs ? glyphScale(truth.lines, shape, glyphs) : null;
    if (!scale) {
      row.unmeasured++;
      return;
    }
    const classes = shape.join('');
    [...truth.lines.join('')].forEach((c, i) => {
      const at = scale[i];
      if (at === undefined || c === '<' || (classes[i] !== 'x' && classes[i] !== 'o')) return;
      (/\d/.test(c) ? row.digits : row.letters).push(at);
    });
  }

  /** The table as Markdown. */
  markdown(): string {
    const spread = (xs: number[]) => {
      if (xs.length === 0) return '–';
      const s = [...xs].sort((a, b) => a - b);
      return `${s[0]!.toFixed(2)} / ${s[s.length >> 1]!.toFixed(2)} / ${s[s.length - 1]!.toFixed(2)}`;
    };
    const tall = (xs: number[]) => xs.filter((x) => x >= DIGIT_FROM).length;
    const out = [
      `| difficulty | documents | no measure | digits | digits: min / median / max | at ${DIGIT_FROM} or more | letters | letters: min / median / max | at ${DIGIT_FROM} or more |`,
      '|---|---:|---:|---:|---|---:|---:|---|---:|',
    ];
    for (const [difficulty, r] of this.rows)
      out.push(
        `| ${difficulty} | ${r.documents} | ${r.unmeasured} | ${r.digits.length} | ${spread(r.digits)} | ${tall(r.digits)} | ${r.letters.length} | ${spread(r.letters)} | ${tall(r.letters)} |`,
      );
    return out.join('\n');
  }
}
