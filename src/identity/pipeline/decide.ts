import type { FaceOutcome } from '../faces/signals.js';
import { readMrz, startOfDay } from './mrz.js';

export const MIN_WIDTH = 320;
export const MIN_HEIGHT = 240;

export interface PipelineInput {
  mrz: string | null;
  document: { sha256: string; width: number; height: number };
  frames: { step: number; sha256: string; width: number; height: number }[];
  documentUsedElsewhere: boolean;
  now: Date;
}

export type PipelineOutcome =
  | { status: 'approved'; reason: null }
  | { status: 'declined'; reason: 'mrz_check_digits_invalid' | 'document_expired' | 'replayed_frame' | 'image_too_small' }
  | { status: 'manual_review'; reason: 'document_reused' }
  | NonNullable<FaceOutcome>;

/**
 * The decision, deterministic and in this order (documented in the OpenAPI):
 * 1. MRZ check digits fail → declined `mrz_check_digits_invalid`;
 * 2. the MRZ expiry date is before today → declined `document_expired`;
 * 3. two selfie frames are byte-identical → declined `replayed_frame`;
 * 4. any image smaller than 320×240 → declined `image_too_small`;
 * 5. the same document image (SHA-256) was used by another verification of the same profile → manual_review `document_reused`;
 * 6. otherwise approved. A document without MRZ skips 1 and 2.
 * With face checks on, an approval here then goes through the face rules (faces/signals.ts).
 */
export function decide(input: PipelineInput): PipelineOutcome {
  if (input.mrz) {
    const mrz = readMrz(input.mrz, input.now);
    if (!mrz.valid) return { status: 'declined', reason: 'mrz_check_digits_invalid' };
    if (!mrz.expirationDate || mrz.expirationDate < startOfDay(input.now)) return { status: 'declined', reason: 'document_expired' };
  }
  const hashes = new Set(input.frames.map((f) => f.sha256));
  if (hashes.size < input.frames.length) return { status: 'declined', reason: 'replayed_frame' };
  const images = [input.document, ...input.frames];
  if (images.some((i) => i.width < MIN_WIDTH || i.height < MIN_HEIGHT)) return { status: 'declined', reason: 'image_too_small' };
  if (input.documentUsedElsewhere) return { status: 'manual_review', reason: 'document_reused' };
  return { status: 'approved', reason: null };
}
