/**
 * The varied document set the read rate is measured on (docs/document-reading.md, "Document reading"): what real
 * documents have that the first set (fixture-set.ts, whose documents the tests pin) lacks.
 * - document numbers mixing letters and digits in any position: Dutch style (nine characters,
 *   any letter but O), German style (C F G H J K L M N P R T V W X Y Z and digits), numbers of
 *   six to eight characters padded with fillers, and the first set's two letters and digits;
 * - names with the letters OCR-B makes look alike (Q O D C G I L S B Z), compound names whose
 *   parts ICAO 9303 joins with `<`, and names of 2 to 30 letters;
 * - every issuing state and nationality the reader knows (the `mrz` package's list);
 * - photos of three difficulties; "hard" adds steeper angles, shear, stronger blur, low JPEG
 *   quality and uneven light.
 * Everything is drawn from the seed, so a run is repeatable and a new seed is a set never seen.
 */
import { states } from 'mrz';
import type { Holder, MrzFormat } from './mrz-lines.js';
import { CLEAN, seeded, type DocumentSpec, type Photo } from './render.js';
import { portraitPath, type Difficulty } from './fixture-set.js';

export type { Difficulty } from './fixture-set.js';

const PORTRAITS = ['person-a-1', 'person-a-3', 'person-b-1', 'person-b-2', 'person-c-1', 'person-c-2'];
/** Every code the reader accepts (it checks them against the same list). */
const STATES = Object.keys(states);

/** Names rich in the look-alike letters, a few of them the ones misread in issue 43's report. */
const SURNAMES = [
  'SZABO',
  'LINDQVIST',
  'MATEO',
  'DOBOS',
  'QUIROGA',
  'GOLDBERG',
  'OLIVEIRA',
  'BOZIC',
  'COSTA',
  'DIOP',
  'ZIOBRO',
  'LOBO',
  'SOUZA',
  'BIGLIO',
  'GODDARD',
  'NG',
  'LI',
  'BO',
  'QI',
  'OZ',
  'DI SILVIO',
  'VAN DER BOSCH',
  'DE LA CRUZ',
  'O BRIEN',
  'GUSTAVSSON',
  'BLOCQ',
  'DZIOBOLSKI',
  'SCIOLI',
  'QUOC',
  'SILVA GODINHO',
  'ZOLDOS',
  'CLODIUS',
  'BOGDANOVIC',
  'LOQUI',
  'ISGOLD',
];
const GIVEN = [
  'ZOE',
  'SIGGI',
  'CLOD',
  'GIL',
  'BOGDAN',
  'DOLORES',
  'QUENTIN',
  'OZGUR',
  'LUIS CARLOS',
  'ISOLDE',
  'GISELA',
  'SOLVEIG',
  'BLAZ',
  'ODD',
  'IB',
  'COLIN',
  'MATEO',
  'DIOGO',
  'SOQUI',
  'BO',
  'OLGA',
  'ZBIGNIEW',
  'GODS',
  'CLOE LIS',
  'ILSE',
  'QIAO',
  'DOBZI',
  'SIGBJOERN',
  'LOIC',
  'BLISS',
];
/** Letters a made-up name part is drawn from: the look-alikes twice as often as the rest. */
const NAME_LETTERS = 'QODCGILSBZQODCGILSBZAEFHJKMNPRTUVWXY';

const DUTCH_LETTERS = 'ABCDEFGHIJKLMNPQRSTUVWXYZ';
const GERMAN_LETTERS = 'CFGHJKLMNPRTVWXYZ';
const ANY_LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';

/** The range each photo setting is drawn from, per difficulty (docs/document-reading.md, "Document reading"). */
const RANGES: Record<Exclude<Difficulty, 'clean'>, Record<Exclude<keyof Photo, 'lightAngle'>, [number, number]>> = {
  'phone photo': {
    rotation: [-3, 3],
    perspective: [0, 0.04],
    shear: [-0.02, 0.02],
    blurSigma: [0, 1],
    jpegQuality: [65, 85],
    width: [1000, 1400],
    coverage: [0.75, 0.92],
    brightness: [0.85, 1.1],
    unevenLight: [0, 0.15],
  },
  hard: {
    rotation: [-8, 8],
    perspective: [0.02, 0.08],
    shear: [-0.06, 0.06],
    blurSigma: [0.8, 1.8],
    jpegQuality: [35, 60],
    width: [900, 1200],
    coverage: [0.6, 0.8],
    brightness: [0.75, 1.2],
    unevenLight: [0.15, 0.45],
  },
};

/** A photo of the given difficulty, varied by `random`. */
export function variedPhotoFor(difficulty: Difficulty, random: () => number): Photo {
  if (difficulty === 'clean') return CLEAN;
  const ranges = RANGES[difficulty];
  const between = ([a, b]: [number, number]) => a + (b - a) * random();
  return {
    rotation: between(ranges.rotation),
    perspective: between(ranges.perspective),
    shear: between(ranges.shear),
    blurSigma: between(ranges.blurSigma),
    jpegQuality: Math.round(between(ranges.jpegQuality)),
    width: Math.round(between(ranges.width)),
    coverage: between(ranges.coverage),
    brightness: between(ranges.brightness),
    unevenLight: between(ranges.unevenLight),
    lightAngle: 360 * random(),
  };
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)]!;
const yymmdd = (random: () => number, from: number, to: number) => {
  const year = Math.floor(from + random() * (to - from));
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  return `${String(year % 100).padStart(2, '0')}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`;
};
const digit = (random: () => number) => String(Math.floor(random() * 10));

/** A document number in one of the styles real documents use. */
export function documentNumber(random: () => number): string {
  const style = random();
  const chars = (length: number, letters: string, letterShare: number) =>
    Array.from({ length }, () => (random() < letterShare ? pick([...letters], random) : digit(random))).join('');
  // Dutch: nine characters, any letter but O, digits anywhere.
  if (style < 0.35) return chars(9, DUTCH_LETTERS, 0.5);
  // German: nine characters of a reduced alphabet.
  if (style < 0.65) return chars(9, GERMAN_LETTERS, 0.5);
  // Shorter numbers, padded with fillers in the zone.
  if (style < 0.8) return chars(6 + Math.floor(random() * 3), ANY_LETTERS, 0.4);
  // The first set's: up to two letters, then digits.
  return Array.from({ length: 9 }, (_, i) => (i < 2 && random() < 0.7 ? pick([...ANY_LETTERS], random) : digit(random))).join('');
}

/** A name part from the list or made up, between `min` and `max` letters long. */
function namePart(list: readonly string[], random: () => number, min: number, max: number): string {
  if (random() < 0.6) return pick(list, random);
  const length = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length }, () => pick([...NAME_LETTERS], random)).join('');
}

/** Surname and given names whose letters together (fillers left out) number 2 to 30. */
function names(random: () => number): { surname: string; givenNames: string } {
  const shape = random();
  // A one-part name (some states print the surname only), 2 to 30 letters.
  if (shape < 0.1) return { surname: namePart(SURNAMES, random, 2, 30), givenNames: '' };
  // Long compound names: the zone truncates them, as ICAO 9303 does.
  if (shape < 0.25)
    return {
      surname: `${namePart(SURNAMES, random, 4, 12)} ${namePart(SURNAMES, random, 4, 12)}`,
      givenNames: `${namePart(GIVEN, random, 3, 10)} ${namePart(GIVEN, random, 3, 10)}`,
    };
  return { surname: namePart(SURNAMES, random, 2, 12), givenNames: namePart(GIVEN, random, 2, 10) };
}

/** The `index`-th document of `format` in the set of `seed`: holder and layout drawn from both. */
export function variedDocumentAt(index: number, seed: number, format: MrzFormat): DocumentSpec {
  const random = seeded(seed * 7919 + index * 104729 + format.charCodeAt(2) * 15485863);
  const country = pick(STATES, random);
  const holder: Holder = {
    ...names(random),
    documentNumber: documentNumber(random),
    issuingCountry: country,
    nationality: random() < 0.7 ? country : pick(STATES, random),
    birthDate: yymmdd(random, 1950, 2006),
    sex: pick(['M', 'F', '<'] as const, random),
    expiryDate: yymmdd(random, 2027, 2036),
    optional: random() < 0.3 ? (random() < 0.5 ? String(Math.floor(random() * 1e8)) : documentNumber(random).slice(0, 7)) : '',
  };
  return { format, holder, portrait: portraitPath(pick(PORTRAITS, random)), layout: random() };
}
