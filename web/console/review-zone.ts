/**
 * The document's machine-readable zone (ICAO 9303) in words for the reviewer: where it came from,
 * what its fields say, and — while the reviewer confirms or corrects it — whether its check digits
 * hold, checked with the same `mrz` parser the service uses. Pure, so it is tested without a browser.
 */
import { parse } from 'mrz';

/** The case view's `document.mrz`: the zone's parsed fields, `source` and `lines` (the text read). */
export type CaseZone = Record<string, string | null | undefined>;

export type ZoneSource = 'image' | 'typed' | 'reviewer' | null;

/** Where the zone on record came from, in one sentence. */
export function zoneSourceWords(source: ZoneSource, linesRead: string): string {
  switch (source) {
    case 'image':
      return 'Read from the document images: every check digit holds.';
    case 'typed':
      return linesRead
        ? 'Typed by the website that started the verification. The reading of the images, below, did not find a zone whose check digits hold.'
        : 'Typed by the website that started the verification, not read from the document: nothing like a zone was found in the images.';
    case 'reviewer':
      return 'Entered by a reviewer from the document images.';
    default:
      return linesRead
        ? 'Not read: the text below looks like a zone, but its check digits do not hold. Compare it with the document.'
        : 'Nothing was read: no lines like a zone were found in the images.';
  }
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * YYMMDD as a date in words. A birth year above this year's two digits is last century's; an
 * expiry is this century's (as the service reads them for the claims).
 */
export function zoneDateWords(value: string, kind: 'birth' | 'expiry', today: Date): string {
  if (!/^\d{6}$/.test(value)) return value;
  const yy = Number(value.slice(0, 2));
  const month = Number(value.slice(2, 4));
  const day = Number(value.slice(4, 6));
  if (month < 1 || month > 12 || day < 1 || day > 31) return `${value} (not a date)`;
  const year = kind === 'birth' && yy > today.getUTCFullYear() % 100 ? 1900 + yy : 2000 + yy;
  const words = `${day} ${MONTHS[month - 1]} ${year}`;
  if (kind === 'expiry' && Date.UTC(year, month - 1, day) < Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()))
    return `${words} (expired)`;
  return words;
}

const SEX: Record<string, string> = { male: 'Male', female: 'Female', nonspecified: 'Not specified' };

function documentTypeWords(code: string): string {
  if (code.startsWith('P')) return `Passport (${code})`;
  if (/^[ACI]/.test(code)) return `Identity card (${code})`;
  return code;
}

/** The zone's fields a reviewer compares with the document, labelled in words, in the order printed. */
export function zoneFieldWords(zone: CaseZone, today: Date): { label: string; value: string }[] {
  const rows: { label: string; value: string }[] = [];
  const add = (label: string, value: string | null | undefined, words: (v: string) => string = (v) => v) => {
    if (value) rows.push({ label, value: words(value) });
  };
  add('Document type', zone.documentCode, documentTypeWords);
  add('Issued by', zone.issuingState);
  add('Surname', zone.lastName);
  add('Given names', zone.firstName);
  add('Document number', zone.documentNumber);
  add('Nationality', zone.nationality);
  add('Date of birth', zone.birthDate, (v) => zoneDateWords(v, 'birth', today));
  add('Sex', zone.sex, (v) => SEX[v] ?? v);
  add('Expires', zone.expirationDate, (v) => zoneDateWords(v, 'expiry', today));
  add('Personal number', zone.personalNumber);
  add('Optional data', [zone.optional1, zone.optional2].filter(Boolean).join(' ') || null);
  return rows;
}

/** The zone as the service compares it: upper case, no spaces, no empty lines. */
export function normalisedZone(text: string): string {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, '').toUpperCase())
    .filter((l) => l.length > 0)
    .join('\n');
}

const SHAPES = 'A passport has 2 lines of 44 characters; an ID card 3 lines of 30, or 2 lines of 36.';

/**
 * What stands between this text and a zone the service accepts (it parses as TD1, TD2 or TD3 with
 * every check digit holding), in words; empty when it would be accepted.
 */
export function zoneProblems(text: string): string[] {
  const lines = normalisedZone(text).split('\n').filter(Boolean);
  if (lines.length === 0) return ['The zone is empty.'];
  const bad = lines.find((l) => !/^[A-Z0-9<]+$/.test(l));
  if (bad !== undefined) return [`Line ${lines.indexOf(bad) + 1} has characters a zone never holds: only A–Z, 0–9 and < are used.`];
  let result: ReturnType<typeof parse>;
  try {
    result = parse(lines);
  } catch {
    return [
      `These are ${lines.length} line${lines.length === 1 ? '' : 's'} of ${lines.map((l) => l.length).join(', ')} characters. ${SHAPES}`,
    ];
  }
  if (!['TD1', 'TD2', 'TD3'].includes(result.format))
    return [`These lines are a ${result.format} zone, not a passport's or an ID card's. ${SHAPES}`];
  return result.details
    .filter((d) => d.field?.endsWith('CheckDigit') && !d.valid)
    .map((d) => {
      const where = `(line ${d.line + 1}, character ${d.start + 1})`;
      if (d.field === 'compositeCheckDigit') return `The final check digit, over the whole zone, does not hold ${where}.`;
      return `The check digit of the ${d.label.replace(/ check digit$/i, '').toLowerCase()} does not hold ${where}.`;
    });
}

/** A stretch of one zone line that is, or is not, the same as the other zone's line at those characters. */
export interface ZoneRun {
  text: string;
  differs: boolean;
}

/**
 * `zone` line by line, cut into runs where it differs from `other` character by character (a
 * character the other line lacks differs too), so both zones can be shown with the differences marked.
 */
export function zoneLineRuns(zone: string, other: string): ZoneRun[][] {
  const theirs = normalisedZone(other).split('\n');
  return normalisedZone(zone)
    .split('\n')
    .map((line, i) => {
      const runs: ZoneRun[] = [];
      [...line].forEach((c, j) => {
        const differs = c !== theirs[i]?.[j];
        const last = runs.at(-1);
        if (last && last.differs === differs) last.text += c;
        else runs.push({ text: c, differs });
      });
      return runs;
    });
}

/** Where two zones differ, in words ("line 2, characters 23 and 28"), for readers who cannot see the marks. */
export function zoneDifferenceWords(zone: string, other: string): string {
  const [a, b] = [normalisedZone(zone).split('\n'), normalisedZone(other).split('\n')];
  const lines = Array.from({ length: Math.max(a.length, b.length) }, (_, i) => {
    const [x, y] = [a[i] ?? '', b[i] ?? ''];
    const at = Array.from({ length: Math.max(x.length, y.length) }, (_, j) => j).filter((j) => x[j] !== y[j]);
    if (at.length === 0) return null;
    const named = at.slice(0, 8).map((j) => String(j + 1));
    const more = at.length > 8 ? ` and ${at.length - 8} more` : '';
    const list = at.length === 1 ? named[0] : more ? named.join(', ') + more : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
    return `line ${i + 1}, character${at.length === 1 ? '' : 's'} ${list}`;
  }).filter((l): l is string => l !== null);
  return lines.length ? `They differ (marked) at ${lines.join('; ')}.` : 'The two zones are the same.';
}

/**
 * Whether the zone in the field is the one the first approval carried (both empty counts): the
 * service refuses a deciding approval with any other (docs/identity.md, "Four-eyes review").
 */
export function matchesFirstApproval(field: string, first: string | null): boolean {
  return normalisedZone(field) === normalisedZone(first ?? '');
}

const FORMAT_WORDS: Record<string, string> = {
  TD1: 'an ID card zone of 3 lines',
  TD2: 'an ID card zone of 2 lines',
  TD3: 'a passport zone',
};

/**
 * The service's 409 for a deciding approval whose zone is not the first approval's, in the
 * reviewer's words: what differs (the service names formats and positions, never characters),
 * and what to do on this page, not the API's field names. Any other message stays as written.
 */
export function zoneConflictWords(detail: string): string {
  const at = detail.indexOf(': under four-eyes review');
  if (at < 0 || !detail.includes('first_approval.mrz')) return detail;
  const difference = detail.slice(0, at).replace(/\bTD[123]\b/g, (format) => FORMAT_WORDS[format]!);
  return (
    `Not approved: ${difference.charAt(0).toLowerCase()}${difference.slice(1)}. ` +
    'Your approval decides this case, so it must carry exactly the zone of the first approval — or no zone when that one carried none. ' +
    'Compare both under "Zone of the first approval", then approve with the same lines, or decline.'
  );
}
