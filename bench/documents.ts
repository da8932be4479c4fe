// The document reader's own time (docs/document-reading.md, "Document reading"), `BENCH_ONLY=documents` or a full
// run: the reader that the identity pipeline uses, in this process, over photos with no zone (the
// no-zone set of the read-rate script: selfies, noise, blank pages, card fronts; the 6,000 × 6,600
// noise PNG of the hostile uploads, from five seeds), each to be refused, and over readable
// documents (phone photos of generated passports and cards), each to be read. Targets: no zone p95 ≤ 2 s, readable document p95 ≤ 3 s. One reader, one photo at a time,
// as the pipeline reads them; the first read of each kind waits for nothing, the engines are
// started and warmed before.
import { createDocumentReader } from '../src/recognition/document/reader.js';
import { documentAt, photoFor } from '../scripts/documents/fixture-set.js';
import { mrzLines } from '../scripts/documents/mrz-lines.js';
import { noZonePhotos } from '../scripts/documents/no-zone.js';
import { noisePng } from '../scripts/fixtures/hostile-images.js';
import { renderDocument, seeded } from '../scripts/documents/render.js';

export interface DocumentReadFigure {
  label: string;
  photos: number;
  /** refused (no zone) or read exactly (documents) */
  expected: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  targetP95Ms: number;
}

const BENCH_DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 20);
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

export async function measureDocumentReading(log: (msg: string) => void): Promise<DocumentReadFigure[]> {
  const reader = createDocumentReader();
  try {
    const documents = await Promise.all(
      Array.from({ length: BENCH_DOCUMENTS }, async (_, i) => {
        const spec = documentAt(i, 61);
        const side = spec.format === 'TD1' ? 'back' : 'front';
        return {
          image: await renderDocument(spec, side, photoFor('phone photo', seeded(i + 611)), i + 1),
          truth: mrzLines(spec.format, spec.holder).join('\n'),
        };
      }),
    );
    const noZone = await noZonePhotos(61);
    // The hostile upload the band finder took for a zone until rows needed blank paper between them (band.ts).
    const hostileNoise = [61, 62, 63, 64, 65].map((seed) => noisePng(6_000, 6_600, seed));
    log('documents: warming the reader…');
    await reader.read([documents[0]!.image]);
    const time = async (image: Buffer) => {
      const started = performance.now();
      const { zone } = await reader.read([image]);
      return { ms: performance.now() - started, zone };
    };
    const figure = (label: string, times: number[], expected: number, targetP95Ms: number): DocumentReadFigure => ({
      label,
      photos: times.length,
      expected,
      p50Ms: quantile(times, 0.5),
      p95Ms: quantile(times, 0.95),
      maxMs: Math.max(...times),
      targetP95Ms,
    });
    log(`documents: ${noZone.length} photos with no zone, ${hostileNoise.length} noise PNGs, ${documents.length} readable documents…`);
    /** Each photo's time, and how many of them were refused (no zone read). */
    const refusing = async (images: Buffer[]) => {
      const times: number[] = [];
      let count = 0;
      for (const image of images) {
        const { ms, zone } = await time(image);
        times.push(ms);
        if (!zone) count++;
      }
      return { times, count };
    };
    const refused = await refusing(noZone.map((p) => p.image));
    const refusedNoise = await refusing(hostileNoise);
    const read: number[] = [];
    let readCount = 0;
    for (const { image, truth } of documents) {
      const { ms, zone } = await time(image);
      read.push(ms);
      if (zone?.lines.join('\n') === truth) readCount++;
    }
    return [
      figure('photo with no zone (selfie, noise, blank page, card front): refused', refused.times, refused.count, 2000),
      figure('6,000 × 6,600 noise PNG of the hostile uploads: refused', refusedNoise.times, refusedNoise.count, 2000),
      figure('readable document (phone photo of a passport or card): read', read, readCount, 3000),
    ];
  } finally {
    await reader.close();
  }
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

export function documentReadingMarkdown(figures: DocumentReadFigure[]): string {
  const lines = [
    '',
    '| Document reader, one photo at a time | photos | as expected | p50 ms | p95 ms | max ms | Target | Result |',
    '|---|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const f of figures)
    lines.push(
      `| ${f.label} | ${f.photos} | ${f.expected} | ${fmt(f.p50Ms)} | ${fmt(f.p95Ms)} | ${fmt(f.maxMs)} | p95 ≤ ${fmt(f.targetP95Ms)} ms | ${f.p95Ms <= f.targetP95Ms && f.expected === f.photos ? 'pass' : 'miss'} |`,
    );
  return `${lines.join('\n')}\n`;
}
