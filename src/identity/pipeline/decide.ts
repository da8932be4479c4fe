import type { FaceOutcome } from '../face-rules.js';
import type { DocumentReading } from '../../recognition/document/reader.js';
import { inName } from '../../recognition/document/certainty.js';
import { compareReadings } from '../../recognition/document/look-alikes.js';
import type { ZoneReading } from '../../recognition/document/zone-layout.js';
import { sidesAgree, type CardSides } from '../../recognition/document/sides.js';
import { MIN_IMAGE_HEIGHT as MIN_HEIGHT, MIN_IMAGE_WIDTH as MIN_WIDTH } from '../upload-limits.js';
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
  | { status: 'manual_review'; reason: 'document_reused' | 'document_unreadable' | 'document_sides_mismatch' | 'mrz_mismatch' }
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
 * Document reading (decideReading) and then the face rules (face-rules.ts) come after these.
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
 * How a typed zone compares with the zone read (look-alikes.ts). Where the reading marked the name
 * uncertain (certainty.ts), a difference in the name is never `different`: the name read is no
 * ground to decline anyone, so such a difference goes to review as a look-alike does.
 */
export function typedAgainstRead(typed: string, zone: ZoneReading, nameUncertain: boolean): 'same' | 'look_alike' | 'different' {
  const read = zone.lines.join('\n');
  const compared = compareReadings(typed, read);
  if (compared !== 'different' || !nameUncertain) return compared;
  const typedLines = typed.split('\n');
  if (typedLines.length !== zone.lines.length || typedLines.some((l, i) => l.length !== zone.lines[i]!.length)) return 'different';
  const withNameRead = typedLines
    .map((line, row) => [...line].map((c, column) => (inName(zone.format, row, column) ? zone.lines[row]![column]! : c)).join(''))
    .join('\n');
  return compareReadings(withNameRead, read) === 'different' ? 'different' : 'look_alike';
}

/** What the document reading found, for its rules. */
export interface ReadingInput {
  /** the zone the device typed, or null */
  typed: string | null;
  reading: DocumentReading;
  /** with a `back`: where the zone was read and what the front prints (null when no zone was read, absent without a back) */
  sides?: CardSides | null;
  /** the zone's document number was used by another verification of the same profile within 90 days */
  numberUsedElsewhere: boolean;
  now: Date;
}

/**
 * The document-reading rules (docs/document-reading.md, "Document reading"), applied to what the byte rules left
 * undeclined, in this order:
 * 1. no zone read → manual_review `document_unreadable`;
 * 2. a typed zone that differs from the zone read in some character the reader cannot read for
 *    the other (document/look-alikes.ts), outside a name the reading marked uncertain → declined
 *    `mrz_mismatch`;
 * 3. the zone read has expired → declined `document_expired`;
 * 4. with a back: the zone not read from the back, a passport's zone (TD3), or a front that does
 *    not show the zone's document number → manual_review `document_sides_mismatch`;
 * 5. the zone's document number used by another verification of the profile within 90 days →
 *    manual_review `document_reused`;
 * 6. a typed zone that differs only in characters the reader confuses → manual_review
 *    `mrz_mismatch`: an OCR slip (the device's or ours) never declines a person.
 * The review reasons (1, 4, 5, 6) replace only an approval: a review reason the byte rules gave stays.
 */
export function decideReading(byteOutcome: PipelineOutcome, input: ReadingInput): PipelineOutcome {
  if (byteOutcome.status === 'declined') return byteOutcome;
  const review = (reason: 'document_unreadable' | 'document_sides_mismatch' | 'document_reused' | 'mrz_mismatch'): PipelineOutcome =>
    byteOutcome.status === 'approved' ? { status: 'manual_review', reason } : byteOutcome;
  const zone = input.reading.zone;
  if (!zone) return review('document_unreadable');
  const typed = input.typed === null ? 'same' : typedAgainstRead(normalisedZone(input.typed), zone, input.reading.nameUncertain === true);
  if (typed === 'different') return { status: 'declined', reason: 'mrz_mismatch' };
  const mrz = readMrz(zone.lines.join('\n'), input.now);
  if (!mrz.expirationDate || mrz.expirationDate < startOfDay(input.now)) return { status: 'declined', reason: 'document_expired' };
  if (input.sides !== undefined && (input.sides === null || !sidesAgree(zone, input.sides))) return review('document_sides_mismatch');
  if (input.numberUsedElsewhere) return review('document_reused');
  if (typed === 'look_alike') return review('mrz_mismatch');
  return byteOutcome;
}
