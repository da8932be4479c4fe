import type { FaceOutcome } from '../faces/signals.js';
import type { DocumentReading } from '../document/reader.js';
import { MIN_IMAGE_HEIGHT as MIN_HEIGHT, MIN_IMAGE_WIDTH as MIN_WIDTH } from '../uploads/limits.js';
import { readMrz, startOfDay } from './mrz.js';

export interface PipelineInput {
  mrz: string | null;
  document: { sha256: string; width: number; height: number };
  frames: { step: number; sha256: string; width: number; height: number }[];
  documentUsedElsewhere: boolean;
  now: Date;
}

export type PipelineOutcome =
  | { status: 'approved'; reason: null }
  | {
      status: 'declined';
      reason: 'mrz_check_digits_invalid' | 'document_expired' | 'replayed_frame' | 'image_too_small' | 'mrz_mismatch';
    }
  | { status: 'manual_review'; reason: 'document_reused' | 'document_unreadable' }
  | NonNullable<FaceOutcome>;

/** The zone's lines compared as ICAO 9303 prints them: upper case, no spaces, one line each. */
export function normalisedZone(mrz: string): string {
  return mrz
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, '').toUpperCase())
    .filter((l) => l.length > 0)
    .join('\n');
}

/**
 * The decision's byte rules, deterministic and in this order (documented in the OpenAPI):
 * 1. MRZ check digits fail → declined `mrz_check_digits_invalid`;
 * 2. the MRZ expiry date is before today → declined `document_expired`;
 * 3. two selfie frames are byte-identical → declined `replayed_frame`;
 * 4. any image smaller than 320×240 → declined `image_too_small` (refused at upload too; kept for images stored before that);
 * 5. the same document image (SHA-256) was used by another verification of the same profile → manual_review `document_reused`;
 * 6. otherwise approved. A document without MRZ skips 1 and 2.
 * Document reading (decideReading) and then the face rules (faces/signals.ts) come after these.
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

/**
 * The document-reading rules (README, "Document reading"), applied to what the byte rules left
 * undeclined: a typed zone that differs from the zone read → declined `mrz_mismatch`; a zone read
 * that has expired → declined `document_expired`; no zone read → manual_review
 * `document_unreadable` (unless the byte rules already sent it to review for another reason).
 */
export function decideReading(byteOutcome: PipelineOutcome, typed: string | null, reading: DocumentReading, now: Date): PipelineOutcome {
  if (byteOutcome.status === 'declined') return byteOutcome;
  if (!reading.zone) return byteOutcome.status === 'approved' ? { status: 'manual_review', reason: 'document_unreadable' } : byteOutcome;
  const read = reading.zone.lines.join('\n');
  if (typed !== null && normalisedZone(typed) !== read) return { status: 'declined', reason: 'mrz_mismatch' };
  const mrz = readMrz(read, now);
  if (!mrz.expirationDate || mrz.expirationDate < startOfDay(now)) return { status: 'declined', reason: 'document_expired' };
  return byteOutcome;
}
