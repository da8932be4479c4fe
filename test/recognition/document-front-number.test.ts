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

const NUMBER = 'RC2M9V72T';

/** Reads the front with engines that answer these texts: the tokens, or the failure, and what each engine was asked. */
async function readWith(lstmText: string | Error, legacyText: string | Error) {
  const lstm = engine(lstmText);
  const legacy = engine(legacyText);
  const tokens = await readPrintedNumbers({ lstm: lstm.worker, legacy: legacy.worker }, front, LIMIT, NUMBER).catch((err: Error) => err);
  return { tokens, lstm: lstm.calls, legacy: legacy.calls };
}

describe("the front's printed number, read by one engine and by the other where the first missed it (front-number.ts)", () => {
  it('asks the LSTM engine only, when its tokens show the zone’s number up to look-alikes', async () => {
    expect(await readWith('IDENTITY CARD\nRC2M9V72T 301214', 'unused')).toEqual({
      tokens: ['IDENTITY', 'CARD', NUMBER, '301214'],
      lstm: ONE_PASS,
      legacy: [],
    });
  });

  it("adds the legacy engine's tokens where the LSTM engine's miss it (tuning seed 20, clean TD1 #24: RC2M9V72T read as RC2MOV72T)", async () => {
    expect(await readWith('RC2MOV72T 301214', 'IDENTITY RC2M9V72T EXDIVV 301214')).toEqual({
      tokens: ['RC2MOV72T', '301214', 'IDENTITY', NUMBER, 'EXDIVV'],
      lstm: ONE_PASS,
      legacy: ONE_PASS,
    });
  });

  it('puts each engine back to the zone’s single block when its pass fails', async () => {
    const read = await readWith('nothing here', new Error('engine died'));
    expect(read.tokens).toEqual(new Error('engine died'));
    expect(read.legacy).toEqual(ONE_PASS);
  });
});
