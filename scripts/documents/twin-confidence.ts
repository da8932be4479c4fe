/**
 * The measured table the twin rules are chosen from (docs/document-reading.md, "Document reading"): for every
 * character of a true zone's mixed fields that has an uncheckable twin (G/6, L/1, S/8, U/0), what
 * each engine saw in its place in every pass the reader made, and with what confidence. It shows
 * which engine's confidence can choose between twins (`LSTM_TWIN_CONFIDENCE` in confidence.ts) and
 * that none can accept one alone (a twin read with as much confidence as printed characters).
 */
import type { ZoneReading } from '../../src/recognition/document/zone-layout.js';
import { UNCHECKABLE } from '../../src/recognition/document/look-alikes.js';
import { twinSightings, type Engine, type EngineLines, type TwinSighting } from '../../src/recognition/document/twins.js';

/** Lower edges of the confidence bands (Tesseract's 0 to 100). */
const BANDS = [0, 40, 60, 70, 75, 80, 85, 90, 92, 94, 96, 98];

type Outcome = 'printed' | 'twin' | 'other';

export class TwinConfidenceTable {
  private readonly counts = new Map<string, number>();
  /** every twin read in place of the printed character, for the log */
  readonly twins: (TwinSighting & { document: string; pass: string; other?: TwinSighting })[] = [];

  /** Adds what the engines saw, in one pass over a document, at the true zone's twin-prone characters. */
  add(document: string, pass: string, truth: ZoneReading, lines: EngineLines): void {
    const sightings = twinSightings(truth, lines);
    for (const s of sightings) {
      const outcome: Outcome = s.seen === s.char ? 'printed' : s.seen === UNCHECKABLE[s.char] ? 'twin' : 'other';
      const band = s.confidence === undefined ? -1 : BANDS.filter((b) => b <= s.confidence!).pop()!;
      const key = `${s.engine}|${band}|${outcome}`;
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
      if (outcome === 'twin') {
        const other = sightings.find((o) => o.engine !== s.engine && o.row === s.row && o.column === s.column);
        this.twins.push({ ...s, document, pass, other });
      }
    }
  }

  /** The table as Markdown: per engine and confidence band, how often the printed character, its twin or something else was seen. */
  markdown(): string {
    const count = (engine: Engine, band: number, outcome: Outcome) => this.counts.get(`${engine}|${band}|${outcome}`) ?? 0;
    const out = ['| engine | confidence | printed character | its twin | something else |', '|---|---|---:|---:|---:|'];
    for (const engine of ['legacy', 'lstm'] as const) {
      for (const [i, band] of [-1, ...BANDS].entries()) {
        const row = (['printed', 'twin', 'other'] as const).map((o) => count(engine, band, o));
        if (row.every((n) => n === 0)) continue;
        const label = band < 0 ? 'nothing aligned' : `${band}–${[-1, ...BANDS][i + 1] ?? 100}`;
        out.push(`| ${engine} | ${label} | ${row.join(' | ')} |`);
      }
    }
    return out.join('\n');
  }
}
