/**
 * The measured table the look-alike set comes from (docs/document-reading.md, "Document reading",
 * look-alikes.ts): for every character of a true zone's mixed fields (document number, optional
 * data), what each engine read in its place in every pass the reader made, when it read another
 * letter or digit. Those fields take letters and digits anywhere, so there a misreading is not
 * caught by the field's class, only by the check digits, which several swaps can fool.
 */
import { alignedIndices, bestMatchIndex } from '../../src/recognition/document/repair.js';
import { MIXED_FIELDS, type ZoneReading } from '../../src/recognition/document/zone-layout.js';
import type { Engine, EngineLines } from '../../src/recognition/document/twins.js';

export class ConfusionTable {
  private readonly counts = new Map<string, number>();
  private printed = 0;

  /** Adds what the engines read, in one pass over a document, at the true zone's mixed fields. */
  add(truth: ZoneReading, lines: EngineLines): void {
    for (const engine of ['legacy', 'lstm'] as const) {
      const texts = lines[engine].map((l) => l.text);
      for (const { row, start, end } of MIXED_FIELDS[truth.format]) {
        const line = truth.lines[row]!;
        const match = bestMatchIndex(line, texts);
        if (match < 0) continue;
        const aligned = alignedIndices(line, texts[match]!);
        for (let column = start; column < end; column++) {
          const char = line[column]!;
          if (char === '<') continue;
          this.printed++;
          const at = aligned[column];
          const seen = at === undefined ? undefined : texts[match]![at]!;
          if (seen === undefined || seen === char || seen === '<') continue;
          const key = `${engine}|${char}|${seen}`;
          this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
        }
      }
    }
  }

  /** Every (printed, read) pair seen, most frequent first, with each engine's count. */
  pairs(): { printed: string; read: string; legacy: number; lstm: number }[] {
    const byPair = new Map<string, Record<Engine, number>>();
    for (const [key, n] of this.counts) {
      const [engine, printed, read] = key.split('|') as [Engine, string, string];
      const entry = byPair.get(printed + read) ?? { legacy: 0, lstm: 0 };
      entry[engine] += n;
      byPair.set(printed + read, entry);
    }
    return [...byPair]
      .map(([pair, n]) => ({ printed: pair[0]!, read: pair[1]!, ...n }))
      .sort((a, b) => b.legacy + b.lstm - (a.legacy + a.lstm) || a.printed.localeCompare(b.printed));
  }

  /** The table as Markdown, pairs seen at least `atLeast` times. */
  markdown(atLeast = 2): string {
    const out = [
      `(${this.printed} printed letters and digits read by the two engines)\n`,
      '| printed | read | legacy | lstm |',
      '|---|---|---:|---:|',
    ];
    for (const p of this.pairs()) if (p.legacy + p.lstm >= atLeast) out.push(`| ${p.printed} | ${p.read} | ${p.legacy} | ${p.lstm} |`);
    return out.join('\n');
  }
}
