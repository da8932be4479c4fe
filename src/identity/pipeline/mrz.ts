import { parse } from 'mrz';

interface MrzData {
  valid: boolean;
  birthDate: Date | null;
  expirationDate: Date | null;
  nationality: string | null;
}

/** YYMMDD to a UTC date; `century` picks 19xx or 20xx for the two-digit year. */
function mrzDate(value: string | null | undefined, century: (yy: number) => number): Date | null {
  if (!value || !/^\d{6}$/.test(value)) return null;
  const yy = Number(value.slice(0, 2));
  const date = new Date(Date.UTC(century(yy), Number(value.slice(2, 4)) - 1, Number(value.slice(4, 6))));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Reads the fields the pipeline and the attestations need; `valid` is false when any check digit fails. */
export function readMrz(text: string, today: Date): MrzData {
  const result = parse(text.split('\n'));
  const yearNow = today.getUTCFullYear() % 100;
  const checkDigitsOk = result.details.filter((d) => d.field?.endsWith('CheckDigit')).every((d) => d.valid);
  return {
    valid: checkDigitsOk,
    // A birth year "above" this year's two digits is last century's.
    birthDate: mrzDate(result.fields.birthDate, (yy) => (yy > yearNow ? 1900 + yy : 2000 + yy)),
    expirationDate: mrzDate(result.fields.expirationDate, (yy) => 2000 + yy),
    nationality: result.fields.nationality ?? null,
  };
}

export function startOfDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/** Whole years between a birth date and `at`. */
export function ageAt(birth: Date, at: Date): number {
  let age = at.getUTCFullYear() - birth.getUTCFullYear();
  const m = at.getUTCMonth() - birth.getUTCMonth();
  if (m < 0 || (m === 0 && at.getUTCDate() < birth.getUTCDate())) age--;
  return age;
}
