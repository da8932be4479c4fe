/**
 * Machine-readable zones of ICAO 9303 documents for the generated fixtures: TD1 (ID card, 3×30),
 * TD2 (ID card, 2×36) and TD3 (passport, 2×44), with check digits that hold or, on request, one
 * that does not.
 */
export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

export interface Holder {
  surname: string;
  givenNames: string;
  documentNumber: string;
  issuingCountry: string;
  nationality: string;
  /** YYMMDD */
  birthDate: string;
  sex: 'M' | 'F' | '<';
  /** YYMMDD */
  expiryDate: string;
  optional?: string;
}

const WEIGHTS = [7, 3, 1];

/** ICAO 9303 part 3 §4.9: digits as themselves, A–Z as 10–35, the filler as 0, weights 7-3-1. */
export function checkDigit(field: string): string {
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    const value = c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    sum += value * WEIGHTS[i % 3]!;
  }
  return String(sum % 10);
}

const pad = (text: string, length: number) =>
  text
    .toUpperCase()
    .replace(/[^A-Z0-9<]/g, '<')
    .padEnd(length, '<')
    .slice(0, length);
const name = (h: Holder, length: number) => pad(`${h.surname.replace(/ /g, '<')}<<${h.givenNames.replace(/ /g, '<')}`, length);

/** Lines of the zone, joined by `\n` by the caller; `breakCheck` spoils the document number's check digit. */
export function mrzLines(format: MrzFormat, h: Holder, breakCheck = false): string[] {
  const spoil = (digit: string) => (breakCheck ? String((Number(digit) + 1) % 10) : digit);
  const number9 = pad(h.documentNumber, 9);
  const numberCheck = spoil(checkDigit(number9));
  const birth = h.birthDate + checkDigit(h.birthDate);
  const expiry = h.expiryDate + checkDigit(h.expiryDate);
  if (format === 'TD3') {
    const optional = pad(h.optional ?? '', 14);
    const line1 = `P<${pad(h.issuingCountry, 3)}${name(h, 39)}`;
    const composite = number9 + numberCheck + birth + expiry + optional + checkDigit(optional);
    const line2 = `${number9}${numberCheck}${pad(h.nationality, 3)}${birth}${h.sex}${expiry}${optional}${checkDigit(optional)}${checkDigit(composite)}`;
    return [line1, line2];
  }
  if (format === 'TD2') {
    const optional = pad(h.optional ?? '', 7);
    const line1 = `I<${pad(h.issuingCountry, 3)}${name(h, 31)}`;
    const composite = number9 + numberCheck + birth + expiry + optional;
    const line2 = `${number9}${numberCheck}${pad(h.nationality, 3)}${birth}${h.sex}${expiry}${optional}${checkDigit(composite)}`;
    return [line1, line2];
  }
  const optional1 = pad(h.optional ?? '', 15);
  const line1 = `I<${pad(h.issuingCountry, 3)}${number9}${numberCheck}${optional1}`;
  const optional2 = pad('', 11);
  const composite = line1.slice(5, 30) + birth + expiry + optional2;
  const line2 = `${birth}${h.sex}${expiry}${pad(h.nationality, 3)}${optional2}${checkDigit(composite)}`;
  const line3 = name(h, 30);
  return [line1, line2, line3];
}
