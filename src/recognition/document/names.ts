/**
 * The holder's name by agreement (docs/document-reading.md, "Document reading"; pure, no OCR). No check digit covers
 * the name, so a zone confirmed on its checked fields may carry a name one engine misread in the
 * pass it came from (measured: the legacy engine split the M of MIKKEL into IVI, seed 4711, clean
 * #35; the LSTM engine read the O of PIOTR as Q, seed 8123, phone photo #18) while other passes
 * over the same image read it right. The name taken is the one the most engine readings show.
 */
import type { ZoneFormat, ZoneReading } from './zone-layout.js';

/** Where the name stands, to the end of its line: TD1 its third line, TD2 and TD3 the first line after the document code and issuing state. */
export const namePlace = (format: ZoneFormat): { row: number; start: number } =>
  format === 'TD1' ? { row: 2, start: 0 } : { row: 0, start: 5 };
export const nameOf = (zone: ZoneReading) => {
  const { row, start } = namePlace(zone.format);
  return zone.lines[row]!.slice(start);
};
/** The zone's lines without the name, joined by `\n`: every field a check digit or the list of states covers. */
export const withoutName = (zone: ZoneReading) => {
  const { row, start } = namePlace(zone.format);
  return zone.lines.flatMap((line, i) => (i !== row ? [line] : start > 0 ? [line.slice(0, start)] : [])).join('\n');
};

/** How many of the engines' texts show every part of the name (surname, given names) verbatim. */
const support = (name: string, texts: string[]) => {
  const parts = name.split('<').filter((p) => p.length > 0);
  return texts.filter((text) => parts.every((part) => text.includes(part))).length;
};

/**
 * `zone` with the name that the most of `texts` (each engine's text of each pass over the image)
 * show, among the names of `others` (the zones those passes read) that read every other field as
 * `zone` does. The name of `zone` stays unless another has strictly more support: a tie is no
 * agreement.
 */
export function nameByAgreement(zone: ZoneReading, others: (ZoneReading | null)[], texts: string[]): ZoneReading {
  const rest = withoutName(zone);
  let best = { name: nameOf(zone), support: support(nameOf(zone), texts) };
  for (const other of others) {
    if (!other || other.format !== zone.format || withoutName(other) !== rest) continue;
    const name = nameOf(other);
    const s = support(name, texts);
    if (s > best.support) best = { name, support: s };
  }
  if (best.name === nameOf(zone)) return zone;
  const lines =
    zone.format === 'TD1' ? [zone.lines[0]!, zone.lines[1]!, best.name] : [zone.lines[0]!.slice(0, 5) + best.name, zone.lines[1]!];
  return { format: zone.format, lines };
}
