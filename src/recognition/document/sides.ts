/**
 * One document, not two (docs/document-reading.md, "Document reading"; pure, no OCR): an ID card's front (portrait,
 * printed details) and back (the zone) must be the two sides of the same card. The front's
 * printed document number, read in one cheap pass (front-number.ts), is compared with the number
 * in the zone read from the back.
 */
import { parse } from 'mrz';
import { readAlike } from './look-alikes.js';
import type { ZoneReading } from './zone-layout.js';

/** What the reader saw of a card sent as two sides (a `back` beside the `file`). */
export interface CardSides {
  /** which image the zone was read from: the back, as it should, or the front (then the back held none) */
  zoneFrom: 'front' | 'back';
  /** the tokens of the front shaped like a document number; empty when the front shows none readable */
  printedNumbers: string[];
}

/**
 * A token shaped like a document number: as in the zone's document number field of an ID card
 * (TD1), up to 9 letters and digits. Letters only count too: a number whose digits the front pass
 * read as letters has none left (tuning seed 15, clean TD1 #25: RED0VVNUF read as REDOVVNUF), and
 * the words of the labels and names are compared with the zone's number position by position
 * like any other token (frontShowsNumber): one counts only where it spells that number, up to
 * look-alikes.
 */
const NUMBER_SHAPE = /^[A-Z0-9]{1,9}$/;

/** The tokens of the front's OCR text that may be its printed document number, each once, in reading order. */
export function printedNumberCandidates(text: string): string[] {
  const tokens = text
    .toUpperCase()
    .split(/\s+/)
    .filter((t) => NUMBER_SHAPE.test(t));
  return [...new Set(tokens)];
}

/** The zone's document number and issuing country, as ICAO 9303 places them (null when the zone does not parse). */
export function documentIdentity(zone: ZoneReading): { number: string; issuingCountry: string } | null {
  try {
    const { fields } = parse(zone.lines);
    if (!fields.documentNumber || !fields.issuingState) return null;
    return { number: fields.documentNumber, issuingCountry: fields.issuingState };
  } catch {
    return null;
  }
}

/**
 * Whether the front shows the zone's document number: some token of the front has the number's
 * length and each of its characters is the number's or one the reader can read for it
 * (look-alikes.ts).
 *
 * Look-alikes count as equal here, on purpose. The front's number is printed in the card's own
 * typeface (not OCR-B), read in one pass over the whole front at a modest scale and with no check
 * digit behind it, so O for 0 or I for 1 is the expected slip, and an exact comparison would send
 * honest cards to review for it. What the rule is for is two genuine documents put together (a
 * minor's front with an adult's back): their numbers, issued independently, would have to agree
 * in every position up to such pairs, which two real numbers practically never do. A forger who
 * prints a front can print any number on it, exact or not, so exactness would buy nothing there.
 */
export function frontShowsNumber(printedNumbers: string[], number: string): boolean {
  return printedNumbers.some(
    (token) => token.length === number.length && [...token].every((c, i) => c === number[i] || readAlike(c, number[i]!)),
  );
}

/**
 * Whether the two sides are one card: the zone was read from the back, it is not a passport's
 * (TD3: no card carries one), and the front shows its document number.
 */
export function sidesAgree(zone: ZoneReading, sides: CardSides): boolean {
  if (sides.zoneFrom !== 'back' || zone.format === 'TD3') return false;
  const identity = documentIdentity(zone);
  return identity !== null && frontShowsNumber(sides.printedNumbers, identity.number);
}
