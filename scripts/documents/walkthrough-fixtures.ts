/**
 * Writes the capture files of the walkthrough (docs/walkthrough.md) and of `npm run demo` into
 * test/fixtures/walkthrough/: a passport data page (TD3, clean render, OCR-B zone) whose portrait
 * is person A, and one selfie per pose of the same person. `left` is the person's own left, so
 * the unmirrored frame turns toward the image's right edge (person-a-2 as photographed); `right`
 * is person-a-2 mirrored. The files are committed: running the walkthrough needs neither this
 * script nor Debian's fonts-ocr-b.
 *
 *   npx tsx scripts/documents/walkthrough-fixtures.ts
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { portraitPath } from './fixture-set.js';
import { CLEAN, renderDocument } from './render.js';

const dir = fileURLToPath(new URL('../../test/fixtures/walkthrough/', import.meta.url));
mkdirSync(dir, { recursive: true });

const passport = await renderDocument(
  {
    format: 'TD3',
    // The ICAO 9303 specimen holder, valid until 2034 so the walkthrough is not declined as expired.
    holder: {
      surname: 'ERIKSSON',
      givenNames: 'ANNA MARIA',
      documentNumber: 'L898902C3',
      issuingCountry: 'SWE',
      nationality: 'SWE',
      birthDate: '740812',
      sex: 'F',
      expiryDate: '340415',
    },
    portrait: portraitPath('person-a-1'),
    layout: 0.3,
  },
  'front',
  CLEAN,
);
writeFileSync(`${dir}passport.jpg`, passport);

// Three different frontal photos: two byte-identical frames would be declined as replayed.
for (const [i, name] of ['person-a-3', 'person-a-6', 'person-a-4'].entries()) copyFileSync(portraitPath(name), `${dir}front-${i + 1}.jpg`);
copyFileSync(portraitPath('person-a-2'), `${dir}left.jpg`);
writeFileSync(`${dir}right.jpg`, await sharp(portraitPath('person-a-2')).flop().jpeg({ quality: 90 }).toBuffer());
console.log(`wrote ${dir}: passport.jpg, front-1.jpg … front-3.jpg, left.jpg, right.jpg`);
