/**
 * The generated document set the read-rate measurement and the tests use: holders drawn from a
 * seed, each rendered at one of three difficulties.
 */
import { fileURLToPath } from 'node:url';
import type { Holder, MrzFormat } from './mrz-lines.js';
import { CLEAN, seeded, type DocumentSpec, type Photo } from './render.js';

export type Difficulty = 'clean' | 'phone photo' | 'hard';

const SURNAMES = ['ERIKSSON', 'MUELLER', 'DUBOIS', 'ROSSI', 'NOWAK', 'GARCIA', 'JANSEN', 'OLSEN', 'SILVA', 'KOVAC'];
const GIVEN = ['ANNA MARIA', 'JONAS', 'CLAIRE', 'LUCA', 'PIOTR', 'ELENA', 'SANNE', 'MIKKEL', 'ANA', 'IVAN PETAR'];
const COUNTRIES = ['SWE', 'D', 'FRA', 'ITA', 'POL', 'ESP', 'NLD', 'NOR', 'PRT', 'HRV', 'AUT', 'BEL'];
const PORTRAITS = ['person-a-1', 'person-a-3', 'person-b-1', 'person-b-2', 'person-c-1', 'person-c-2'];

export const portraitPath = (name: string) => fileURLToPath(new URL(`../../test/fixtures/faces/${name}.jpg`, import.meta.url));

/** The range each photo setting is drawn from, per difficulty (docs/document-reading.md, "Document reading"). */
const RANGES: Record<
  Exclude<Difficulty, 'clean'>,
  Record<Exclude<keyof Photo, 'shear' | 'unevenLight' | 'lightAngle'>, [number, number]>
> = {
  'phone photo': {
    rotation: [-3, 3],
    perspective: [0, 0.04],
    blurSigma: [0, 1],
    jpegQuality: [65, 85],
    width: [1000, 1400],
    coverage: [0.75, 0.92],
    brightness: [0.85, 1.1],
  },
  hard: {
    rotation: [-5, 5],
    perspective: [0.02, 0.07],
    blurSigma: [0.8, 1.6],
    jpegQuality: [45, 65],
    width: [900, 1200],
    coverage: [0.6, 0.8],
    brightness: [0.75, 1.2],
  },
};

/** A photo of the given difficulty, varied by `random`. */
export function photoFor(difficulty: Difficulty, random: () => number): Photo {
  if (difficulty === 'clean') return CLEAN;
  const ranges = RANGES[difficulty];
  const between = ([a, b]: [number, number]) => a + (b - a) * random();
  return {
    rotation: between(ranges.rotation),
    perspective: between(ranges.perspective),
    blurSigma: between(ranges.blurSigma),
    jpegQuality: Math.round(between(ranges.jpegQuality)),
    width: Math.round(between(ranges.width)),
    coverage: between(ranges.coverage),
    brightness: between(ranges.brightness),
  };
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)]!;
const yymmdd = (random: () => number, from: number, to: number) => {
  const year = Math.floor(from + random() * (to - from));
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  return `${String(year % 100).padStart(2, '0')}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`;
};

/** The `index`-th document of the set: format, holder and layout drawn from the seed. */
export function documentAt(index: number, seed = 1): DocumentSpec {
  const random = seeded(seed * 7919 + index * 104729);
  const format: MrzFormat = pick(['TD1', 'TD2', 'TD3'] as const, random);
  const country = pick(COUNTRIES, random);
  const letters = 'ABCDEFGHJKLMNPRSTUVWXYZ';
  const documentNumber = Array.from({ length: 9 }, (_, i) =>
    i < 2 && random() < 0.7 ? letters[Math.floor(random() * letters.length)] : String(Math.floor(random() * 10)),
  ).join('');
  const holder: Holder = {
    surname: pick(SURNAMES, random),
    givenNames: pick(GIVEN, random),
    documentNumber,
    issuingCountry: country,
    nationality: random() < 0.9 ? country : pick(COUNTRIES, random),
    birthDate: yymmdd(random, 1950, 2006),
    sex: pick(['M', 'F', '<'] as const, random),
    expiryDate: yymmdd(random, 2027, 2036),
    optional: random() < 0.3 ? String(Math.floor(random() * 1e8)) : '',
  };
  return { format, holder, portrait: portraitPath(pick(PORTRAITS, random)), layout: random() };
}
