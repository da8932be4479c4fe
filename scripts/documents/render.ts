/**
 * Renders synthetic identity documents for tests and the read-rate measurement: a passport data
 * page (TD3) or an ID card (TD1 front with the portrait, back with the zone; TD2 one side), with a
 * face from the fixture photos and the zone set in OCR-B (Debian's fonts-ocr-b), then
 * "photographed": placed on a background, rotated, put in perspective, blurred and compressed.
 */
import { existsSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { mrzLines, type Holder, type MrzFormat } from './mrz-lines.js';
import { warpPerspective } from './perspective.js';

export interface Photo {
  /** degrees, positive clockwise */
  rotation: number;
  /** each corner moves inwards by up to this share of the side */
  perspective: number;
  /** the top edge shifted sideways against the bottom edge by this share of the height (a phone held askew) */
  shear?: number;
  blurSigma: number;
  jpegQuality: number;
  /** width of the whole photo in pixels */
  width: number;
  /** share of the photo's width the document covers */
  coverage: number;
  brightness: number;
  /** how much darker one side of the photo is than the other (0 even light, 0.4 a strong shadow) */
  unevenLight?: number;
  /** the direction the light falls off towards, in degrees */
  lightAngle?: number;
}

export const CLEAN: Photo = { rotation: 0, perspective: 0, blurSigma: 0, jpegQuality: 92, width: 1000, coverage: 1, brightness: 1 };

export interface DocumentSpec {
  format: MrzFormat;
  holder: Holder;
  portrait: string;
  /** an invalid check digit in the zone */
  breakCheck?: boolean;
  /** 0..1: picks the page's tint, title and field positions */
  layout: number;
  /**
   * The document number a TD1 front prints: the holder's (the zone's) by default; another one for
   * a front whose back belongs to another card; null for a front with no legible number (the field
   * left blank, as on a worn or covered card).
   */
  printedNumber?: string | null;
}

const SIZE_MM: Record<MrzFormat, [number, number]> = { TD1: [85.6, 54], TD2: [105, 74], TD3: [125, 88] };
const TINTS = ['#e9efe6', '#efe8f2', '#e6edf4', '#f4efe4', '#eef2f0'];
const TITLES = ['PASSPORT / PASSEPORT', 'IDENTITY CARD', 'REISEPASS / PASSPORT', 'PASAPORTE', 'PASSAPORTO'];

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The side with the machine-readable zone, as SVG at `pxPerMm`; `withPortrait` for TD2, TD3 and a TD1 front. */
function pageSvg(spec: DocumentSpec, side: 'front' | 'back', pxPerMm: number): string {
  const [wMm, hMm] = SIZE_MM[spec.format];
  const w = Math.round(wMm * pxPerMm);
  const h = Math.round(hMm * pxPerMm);
  const mm = (v: number) => (v * pxPerMm).toFixed(1);
  const tint = TINTS[Math.floor(spec.layout * TINTS.length) % TINTS.length]!;
  const title = spec.format === 'TD3' ? TITLES[Math.floor(spec.layout * 7) % TITLES.length]! : 'IDENTITY CARD';
  const parts: string[] = [`<rect width="${w}" height="${h}" rx="${mm(3)}" fill="${tint}"/>`];
  // A light guilloche-like pattern, as on real documents, so the zone is not alone on a plain page.
  for (let i = 0; i < 14; i++) {
    const y = (h * (i + 0.5)) / 14;
    parts.push(
      `<path d="M0 ${y.toFixed(1)} Q ${w / 4} ${(y - 8 * Math.sin(i + spec.layout * 6)).toFixed(1)} ${w / 2} ${y.toFixed(1)} T ${w} ${y.toFixed(1)}" stroke="#c9d3cf" stroke-width="1" fill="none"/>`,
    );
  }
  const showPortrait = spec.format !== 'TD1' || side === 'front';
  const showZone = spec.format !== 'TD1' || side === 'back';
  if (showPortrait) {
    const portrait = readFileSync(spec.portrait).toString('base64');
    const px = 4 + spec.layout * 3;
    parts.push(
      `<text x="${mm(px)}" y="${mm(7)}" font-family="DejaVu Sans" font-weight="bold" font-size="${mm(3.6)}" fill="#2b3a55">${escape(title)}</text>`,
    );
    const ph = spec.format === 'TD1' ? 34 : 40;
    parts.push(
      `<image x="${mm(px)}" y="${mm(10)}" width="${mm(ph * 0.78)}" height="${mm(ph)}" preserveAspectRatio="xMidYMid slice" href="data:image/jpeg;base64,${portrait}"/>`,
    );
    const fields: [string, string][] = [
      ['Surname', spec.holder.surname],
      ['Given names', spec.holder.givenNames],
      ['Nationality', spec.holder.nationality],
      ['Date of birth', spec.holder.birthDate],
      ['Document no.', spec.printedNumber === undefined ? spec.holder.documentNumber : (spec.printedNumber ?? '')],
      ['Date of expiry', spec.holder.expiryDate],
    ];
    const fx = px + ph * 0.78 + 5;
    fields.forEach(([label, value], i) => {
      const y = 12 + i * 6.2;
      parts.push(
        `<text x="${mm(fx)}" y="${mm(y)}" font-family="DejaVu Sans" font-size="${mm(1.8)}" fill="#55606e">${escape(label)}</text>`,
      );
      parts.push(
        `<text x="${mm(fx)}" y="${mm(y + 3)}" font-family="DejaVu Sans" font-size="${mm(2.8)}" fill="#111">${escape(value)}</text>`,
      );
    });
  }
  if (showZone) {
    const lines = mrzLines(spec.format, spec.holder, spec.breakCheck);
    // ICAO 9303: OCR-B size 10, 2.54 mm a character, lines about 4.2 mm apart, the last line's
    // baseline a few millimetres above the bottom edge.
    const pitch = 2.54;
    const zoneLeft = (wMm - lines[0]!.length * pitch) / 2;
    lines.forEach((line, i) => {
      const y = hMm - 4.5 - (lines.length - 1 - i) * 4.3;
      parts.push(
        `<text x="${mm(zoneLeft)}" y="${mm(y)}" font-family="OCR B" font-size="${mm(3.7)}" textLength="${mm(line.length * pitch)}" lengthAdjust="spacing" fill="#111">${escape(line)}</text>`,
      );
    });
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${parts.join('')}</svg>`;
}

/** A deterministic pseudo-random sequence for one photo, so a fixture set is the same every run. */
export function seeded(seed: number): () => number {
  // Mixed first (a 32-bit finaliser), so neighbouring seeds start far apart.
  let s = Math.imul(seed ^ (seed >>> 16), 0x45d9f3b);
  s = Math.imul(s ^ (s >>> 16), 0x45d9f3b);
  s = (s ^ (s >>> 16)) >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** Debian's fonts-ocr-b; without it librsvg would set the zone in another typeface, silently. */
const OCR_B = '/usr/share/fonts/opentype/ocr-b/OCRB.otf';

/** One side of the document, photographed as `photo` says; JPEG bytes. */
export async function renderDocument(spec: DocumentSpec, side: 'front' | 'back', photo: Photo, seed = 1): Promise<Buffer> {
  if (!existsSync(OCR_B)) throw new Error(`The OCR-B typeface is missing (${OCR_B}): apt-get install fonts-ocr-b`);
  const random = seeded(seed);
  const [wMm] = SIZE_MM[spec.format];
  const docWidth = Math.round(photo.width * photo.coverage);
  const page = await sharp(Buffer.from(pageSvg(spec, side, docWidth / wMm)))
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer();
  const shear = photo.shear ?? 0;
  const unevenLight = photo.unevenLight ?? 0;
  if (photo.coverage >= 1 && photo.rotation === 0 && photo.perspective === 0 && photo.blurSigma === 0 && shear === 0 && unevenLight === 0) {
    return sharp(page).jpeg({ quality: photo.jpegQuality }).toBuffer();
  }
  const meta = await sharp(page).metadata();
  const canvasW = photo.width;
  const canvasH = Math.round(Math.max(meta.height! / photo.coverage, meta.height! + 80));
  const table = { r: 90 + Math.round(random() * 60), g: 70 + Math.round(random() * 40), b: 50 + Math.round(random() * 30), alpha: 1 };
  let image = sharp(page).rotate(photo.rotation, { background: table });
  const rotated = await image.png().toBuffer({ resolveWithObject: true });
  const left = Math.max(0, Math.round((canvasW - rotated.info.width) / 2 + (random() - 0.5) * 0.5 * (canvasW - rotated.info.width)));
  const top = Math.max(0, Math.round((canvasH - rotated.info.height) / 2 + (random() - 0.5) * 0.5 * (canvasH - rotated.info.height)));
  const framed = await sharp({
    create: {
      width: Math.max(canvasW, rotated.info.width),
      height: Math.max(canvasH, rotated.info.height),
      channels: 3,
      background: table,
    },
  })
    .composite([{ input: rotated.data, left, top }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let raw = framed.data;
  if (photo.perspective > 0 || shear !== 0) {
    const { width, height } = framed.info;
    const j = () => random() * photo.perspective;
    // Shear moves the top corners one way and the bottom corners the other.
    const s = (shear * height) / 2;
    raw = warpPerspective(raw, width, height, [
      [j() * width + s, j() * height],
      [width - j() * width + s, j() * height],
      [width - j() * width - s, height - j() * height],
      [j() * width - s, height - j() * height],
    ]);
  }
  const { width, height } = framed.info;
  image = sharp(raw, { raw: { width, height, channels: 3 } });
  if (photo.blurSigma > 0) image = image.blur(Math.max(0.3, photo.blurSigma));
  image = image.modulate({ brightness: photo.brightness });
  if (unevenLight > 0) {
    // A shadow across the photo: full light on one side, darker by `unevenLight` on the other.
    const angle = ((photo.lightAngle ?? 0) * Math.PI) / 180;
    const [dx, dy] = [Math.cos(angle) / 2, Math.sin(angle) / 2];
    const shade = Math.round(255 * (1 - unevenLight));
    const gradient = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="l" x1="${0.5 - dx}" y1="${0.5 - dy}" x2="${0.5 + dx}" y2="${0.5 + dy}"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="rgb(${shade},${shade},${shade})"/></linearGradient></defs><rect width="${width}" height="${height}" fill="url(#l)"/></svg>`;
    const lit = await image.png().toBuffer();
    image = sharp(lit).composite([{ input: Buffer.from(gradient), blend: 'multiply' }]);
  }
  return image.jpeg({ quality: photo.jpegQuality }).toBuffer();
}
