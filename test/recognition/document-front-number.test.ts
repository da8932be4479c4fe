import sharp from 'sharp';
import type { Worker } from 'tesseract.js';
import { describe, expect, it } from 'vitest';
import { readPrintedNumbers } from '../../src/recognition/document/front-number.js';

/** An engine that answers `text` for every page and records what it was asked, page segmentation mode included. */
function engine(text: string | Error) {
  const calls: string[] = [];
  const fake = {
    async setParameters(p: { tessedit_pageseg_mode?: string }) {
      calls.push(`mode ${p.tessedit_pageseg_mode}`);
      return {};
    },
    async recognize() {
      calls.push('recognize');
      if (text instanceof Error) throw text;
      return { data: { text } };
    },
  };
  return { worker: fake as unknown as Worker, calls };
}

const front = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#fff' } })
  .png()
  .toBuffer();
const LIMIT = 40_000_000;
// Sparse text for the front, then the zone's single block (tesseract.js's PSM values).
const ONE_PASS = ['mode 11', 'recognize', 'mode 6'];

describe("the front's printed number, read by one engine and by the other where the first missed it (front-number.ts)", () => {
  it('asks the LSTM engine only, when its tokens show the zone’s number up to look-alikes', async () => {
    const lstm = engine('IDENTITY CARD\nRC2M9V72T 301214');
    const legacy = engine('unused');
    expect(await readPrintedNumbers({ lstm: lstm.worker, legacy: legacy.worker }, front, LIMIT, 'RC2M9V72T')).toEqual([
      'IDENTITY',
      'CARD',
      'RC2M9V72T',
      '301214',
    ]);
    expect(lstm.calls).toEqual(ONE_PASS);
    expect(legacy.calls).toEqual([]);
  });

  it("adds the legacy engine's tokens where the LSTM engine's miss it (tuning seed 20, clean TD1 #24: RC2M9V72T read as RC2MOV72T)", async () => {
    const lstm = engine('RC2MOV72T 301214');
    const legacy = engine('IDENTITY RC2M9V72T EXDIVV 301214');
    expect(await readPrintedNumbers({ lstm: lstm.worker, legacy: legacy.worker }, front, LIMIT, 'RC2M9V72T')).toEqual([
      'RC2MOV72T',
      '301214',
      'IDENTITY',
      'RC2M9V72T',
      'EXDIVV',
    ]);
    expect(legacy.calls).toEqual(ONE_PASS);
  });

  it('puts each engine back to the zone’s single block when its pass fails', async () => {
    const lstm = engine('nothing here');
    const legacy = engine(new Error('engine died'));
    await expect(readPrintedNumbers({ lstm: lstm.worker, legacy: legacy.worker }, front, LIMIT, 'RC2M9V72T')).rejects.toThrow(
      'engine died',
    );
    expect(legacy.calls).toEqual(ONE_PASS);
  });
});
