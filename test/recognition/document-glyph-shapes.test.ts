import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findZoneRows } from '../../src/recognition/document/band.js';
import { FIND_WIDTH, greyCopy, SAMPLE_WIDTH } from '../../src/recognition/document/find-copy.js';
import { glyphsByPlace, type ZoneGlyph } from '../../src/recognition/document/glyph-heights.js';
import { measuredZoneGlyphs, preference, shapeMargin, shapeWitness } from '../../src/recognition/document/glyph-shapes.js';
import { levelledZone } from '../../src/recognition/document/levelled-zone.js';
import { OCR_B_GLYPHS } from '../../src/recognition/document/ocr-b-glyphs.js';
import { portraitPath } from '../../scripts/documents/fixture-set.js';
import { mrzLines, type Holder } from '../../scripts/documents/mrz-lines.js';
import { CLEAN, renderDocument, type Photo } from '../../scripts/documents/render.js';
import { GLYPH_MODULE, glyphModule, OCR_B, renderOcrBGlyphs } from '../../scripts/documents/ocr-b-templates.js';

// A number and optional data holding the pairs the engines disagree on: S and 8, Z and 2, O and 0.
const HOLDER: Holder = {
  surname: 'OSZBORN',
  givenNames: 'ZOE',
  documentNumber: 'S8Z20O2S8',
  issuingCountry: 'SEN',
  nationality: 'BEN',
  birthDate: '880512',
  sex: 'F',
  expiryDate: '310214',
};
const LINES = mrzLines('TD3', HOLDER);
const NUMBER_ROW = 1;
/** A phone photo as the generator takes one at its strongest blur (scripts/documents/varied-set.ts: σ up to 1). */
const PHONE: Photo = {
  rotation: 2,
  perspective: 0.02,
  shear: 0.01,
  blurSigma: 1,
  jpegQuality: 70,
  width: 1200,
  coverage: 0.85,
  brightness: 1,
};

/** The glyphs the worker measures on a photo of the zone (worker.ts: levelled at 40 px). */
async function measured(photo: Photo): Promise<ZoneGlyph[][]> {
  const image = await renderDocument(
    { format: 'TD3', holder: HOLDER, portrait: portraitPath('person-a-1'), layout: 0.3 },
    'front',
    photo,
    5,
  );
  const find = await greyCopy(image, FIND_WIDTH);
  const rows = findZoneRows(find)!;
  const full = await greyCopy(image, SAMPLE_WIDTH);
  return measuredZoneGlyphs(levelledZone(full, rows, full.width / find.width, 40), rows.length, 40);
}

describe("the shape witness: a zone's glyphs against OCR-B's own (docs/document-reading.md, step 6)", () => {
  for (const [name, photo] of [
    ['a clean render', CLEAN],
    ['a phone photo at the generator’s strongest blur', PHONE],
  ] as const)
    it(`tells S from 8, Z from 2 and O from 0 on ${name}`, async () => {
      const glyphs = await measured(photo);
      const places = glyphsByPlace(glyphs[NUMBER_ROW]!, LINES[NUMBER_ROW]!.length)!;
      const pairs: Record<string, string> = { S: '8', '8': 'S', Z: '2', '2': 'Z', O: '0', '0': 'O' };
      [...HOLDER.documentNumber].forEach((char, column) => {
        const margin = preference(places[column]?.likeness, char, pairs[char]!);
        expect(margin, `${char} at ${column} against ${pairs[char]}`).toBeGreaterThan(0);
      });
      // The nationality's B and the issuing state's S: the letters of SEN and BEN.
      const first = glyphsByPlace(glyphs[0]!, LINES[0]!.length)!;
      expect(preference(first[2]?.likeness, 'S', 'B')).toBeGreaterThan(0);
      const second = glyphsByPlace(glyphs[1]!, LINES[1]!.length)!;
      expect(preference(second[10]?.likeness, 'B', 'S')).toBeGreaterThan(0);
    });

  it('settles S against 8 and Z against 2 by the margin on a clean render (O against 0 differs less: mostly in height)', async () => {
    const places = glyphsByPlace((await measured(CLEAN))[NUMBER_ROW]!, LINES[NUMBER_ROW]!.length)!;
    const pairs: Record<string, string> = { S: '8', '8': 'S', Z: '2', '2': 'Z' };
    [...HOLDER.documentNumber].forEach((char, column) => {
      if (pairs[char])
        expect(preference(places[column]?.likeness, char, pairs[char]), `${char} at ${column}`).toBeGreaterThanOrEqual(
          shapeMargin(char, pairs[char]!),
        );
    });
  });

  it('says nothing where the glyphs are blurred past their shapes, or no glyph stands at a place', async () => {
    const blurred = await measured({ ...PHONE, blurSigma: 4 });
    expect(blurred.flat().some((g) => g.likeness)).toBe(false);
    expect(preference(undefined, 'S', '8')).toBeUndefined();
    // A row whose glyphs do not match the reading's: the witness is silent.
    expect(shapeWitness(LINES, blurred.slice(0, 1)).prefers(1, 0, 'S', '8')).toBe(false);
  });

  it.runIf(existsSync(OCR_B))('has its OCR-B glyphs as the font draws them (scripts/documents/ocr-b-templates.ts)', async () => {
    const committed = readFileSync(GLYPH_MODULE, 'utf8');
    const drawn = await renderOcrBGlyphs();
    if (glyphModule(drawn) === committed) return;
    // Another librsvg may smooth edges a little differently: the boxes must agree, the ink nearly.
    for (const [c, g] of Object.entries(drawn)) {
      const kept = OCR_B_GLYPHS[c]!;
      expect([c, g.width, g.height, g.baseline]).toEqual([c, kept.width, kept.height, kept.baseline]);
      const diff = [...g.ink].reduce((s, v, i) => s + Math.abs(parseInt(v, 16) - parseInt(kept.ink[i]!, 16)), 0) / g.ink.length;
      expect(diff, c).toBeLessThan(0.5);
    }
  });
});
