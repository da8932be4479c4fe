/**
 * The characters the document reader can read one for the other (docs/document-reading.md, "Document reading"; pure).
 * One table of letter/digit look-alikes (LETTER_DIGITS), from which every rule that must know them
 * takes them: the repair (repair.ts: a letter in a field of digits read as its digit, the twins
 * the check digits cannot tell apart, the letters that can cancel under the check digits), the
 * certainty rule (certainty.ts), and the list below, used wherever a difference between two
 * readings of a document must not count against the person: a typed zone that differs from the
 * zone read only in such pairs is an OCR slip (`manual_review`, never `declined`), and the front's
 * printed document number is compared with the back's zone through it.
 */
import { valueOf } from './zone-layout.js';

/**
 * For each letter, the digits the engines read it for or in its place on OCR-B, the most common
 * first (docs/document-reading.md, the confusion table `npm run documents:read-rate` prints): O, Q,
 * D and U for 0; I, L and T for 1; I for 9 too (seed 6029, hard TD1 #0: `H0PW9E59Y` read as
 * `HOPWIES9Y` by every reading, 0 as O, 9 as I and 5 as S cancelling); Z for 2; A for 4; S for 5
 * and 8; G for 6; B for 8.
 */
export const LETTER_DIGITS: Readonly<Record<string, string>> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '19',
  L: '1',
  T: '1',
  Z: '2',
  A: '4',
  S: '58',
  G: '6',
  B: '8',
};

/**
 * Every pair of the reader's list: the letter/digit look-alikes of LETTER_DIGITS; the letters read
 * for other letters that the country codes settle (W for H, N, U or V; U for V; O for D or Q; B
 * for S; 3 for S or B); and what an engine that does not know the filler reads in its place (K, L,
 * C, S, E, X for `<`).
 */
export const LOOK_ALIKE_PAIRS: readonly (readonly [string, string])[] = [
  ...Object.entries(LETTER_DIGITS).flatMap(([letter, digits]) => [...digits].map((digit) => [letter, digit] as const)),
  ['W', 'H'],
  ['W', 'N'],
  ['W', 'U'],
  ['W', 'V'],
  ['U', 'V'],
  ['O', 'D'],
  ['O', 'Q'],
  ['B', 'S'],
  ['3', 'S'],
  ['3', 'B'],
  ['<', 'K'],
  ['<', 'L'],
  ['<', 'C'],
  ['<', 'S'],
  ['<', 'E'],
  ['<', 'X'],
];

const PAIRS = new Set(LOOK_ALIKE_PAIRS.flatMap(([a, b]) => [a + b, b + a]));

/** Whether the reader can read `a` for `b` (a pair of the list, either way round); never true of one character with itself. */
export const readAlike = (a: string, b: string): boolean => PAIRS.has(a + b);

/**
 * How two texts of the same document compare, character by character: `same`; `look_alike` when
 * they have the same lines of the same lengths and every differing character is a pair of the
 * list; `different` otherwise (another character, a missing one, another line count).
 */
export function compareReadings(a: string, b: string): 'same' | 'look_alike' | 'different' {
  if (a === b) return 'same';
  const linesA = a.split('\n');
  const linesB = b.split('\n');
  if (linesA.length !== linesB.length || linesA.some((l, i) => l.length !== linesB[i]!.length)) return 'different';
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !readAlike(a[i]!, b[i]!)) return 'different';
  return 'look_alike';
}

/**
 * Letter/digit pairs that look alike in OCR-B and that the check digits cannot tell apart (their
 * values are equal modulo 10: G=16 and 6, L=21 and 1, S=28 and 8, U=30 and 0). In a field that may
 * hold both, such a character counts only when both engines saw it (or a look-alike that the check
 * digits do tell apart, as O for 0).
 */
export const UNCHECKABLE: Record<string, string> = Object.fromEntries(
  Object.entries(LETTER_DIGITS).flatMap(([letter, digits]) =>
    [...digits]
      .filter((digit) => (valueOf(letter) - Number(digit)) % 10 === 0)
      .flatMap((digit) => [
        [letter, digit],
        [digit, letter],
      ]),
  ),
);

/**
 * The look-alikes of `c` that OCR confuses it with and that the check digits do tell apart
 * (look-alikes.ts: O, Q and D for 0; I and T for 1; 5 for S; B for 8): never the twin itself (G
 * for 6, L for 1), which weighs the same. Tuning seed 11, clean TD1 #3: the LSTM engine read the
 * 1 of 1X0XMV4LV as T in every pass, the legacy engine 1, and the zone went unread as though the
 * LSTM engine had not seen the 1; T and 1 differ by 28, which the check digit sees alone.
 */
export function checkableLookAlikes(c: string): string[] {
  const lookAlikes = /\d/.test(c)
    ? Object.entries(LETTER_DIGITS).flatMap(([letter, digits]) => (digits.includes(c) ? [letter] : []))
    : [...(LETTER_DIGITS[c] ?? '')];
  return lookAlikes.filter((x) => x !== UNCHECKABLE[c]);
}
