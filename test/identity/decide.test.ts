import { describe, expect, it } from 'vitest';
import { decide, type PipelineInput } from '../../src/identity/pipeline/decide.js';
import { ageAt, readMrz } from '../../src/identity/pipeline/mrz.js';
import { passportMrz } from '../helpers/identity.js';

const now = new Date('2026-11-22T12:00:00.000Z');
const image = (sha256: string, width = 640, height = 480) => ({ sha256, width, height });
const base: PipelineInput = {
  mrz: passportMrz(),
  document: image('doc'),
  frames: [0, 1, 2].map((step) => ({ step, ...image(`f${step}`) })),
  documentUsedElsewhere: false,
  now,
};

describe('the decision pipeline rules (pure)', () => {
  it('approves a clean capture, with or without an MRZ', () => {
    expect(decide(base)).toEqual({ status: 'approved', reason: null });
    expect(decide({ ...base, mrz: null })).toEqual({ status: 'approved', reason: null });
  });

  it('applies the rules in the documented order', () => {
    const everything: PipelineInput = {
      ...base,
      mrz: passportMrz({ breakCheckDigit: true, expiry: '200101' }),
      frames: [0, 1].map((step) => ({ step, ...image('same', 100, 100) })),
      documentUsedElsewhere: true,
    };
    expect(decide(everything).reason).toBe('mrz_check_digits_invalid');
    expect(decide({ ...everything, mrz: passportMrz({ expiry: '200101' }) }).reason).toBe('document_expired');
    expect(decide({ ...everything, mrz: null }).reason).toBe('replayed_frame');
    expect(decide({ ...everything, mrz: null, frames: [0, 1].map((step) => ({ step, ...image(`x${step}`, 100, 100) })) }).reason).toBe(
      'image_too_small',
    );
    expect(decide({ ...base, documentUsedElsewhere: true })).toEqual({ status: 'manual_review', reason: 'document_reused' });
  });

  it('treats 320×240 as large enough and anything smaller in either side as too small', () => {
    expect(decide({ ...base, document: image('doc', 320, 240) }).status).toBe('approved');
    expect(decide({ ...base, document: image('doc', 319, 240) }).reason).toBe('image_too_small');
    expect(decide({ ...base, document: image('doc', 320, 239) }).reason).toBe('image_too_small');
  });

  it('expires a document the day after its expiry date, not on it', () => {
    expect(decide({ ...base, mrz: passportMrz({ expiry: '261122' }) }).status).toBe('approved');
    expect(decide({ ...base, mrz: passportMrz({ expiry: '261121' }) }).reason).toBe('document_expired');
  });

  it('reads birth dates across the century and ages to the day', () => {
    const mrz = readMrz(passportMrz({ birth: '081122' }), now);
    expect(mrz.valid).toBe(true);
    expect(mrz.birthDate?.toISOString().slice(0, 10)).toBe('2008-11-22');
    expect(ageAt(mrz.birthDate!, now)).toBe(18);
    expect(ageAt(readMrz(passportMrz({ birth: '081123' }), now).birthDate!, now)).toBe(17);
    expect(readMrz(passportMrz({ birth: '750101' }), now).birthDate?.getUTCFullYear()).toBe(1975);
    expect(readMrz(passportMrz({ nationality: 'DEU' }), now).nationality).toBe('DEU');
  });
});
