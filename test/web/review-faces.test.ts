import { describe, expect, it } from 'vitest';
import { faceCards, faceCrop } from '../../web/console/review-faces.js';
import { zoneConflictWords } from '../../web/console/review-zone.js';
import { identityErrors } from '../../src/identity/errors.js';
import { zoneDifference } from '../../src/identity/four-eyes.js';
import { passportMrz } from '../helpers/identity.js';

const thresholds = { match_low: 0.3, match_high: 0.45, yaw_turn: 0.2, yaw_front: 0.15 };
const face = (box: [number, number, number, number], yaw: number | null = 0) => ({ box, yaw, antispoof: 0.9, liveness: 0.9 });

describe("the reviewer's face comparison (pure)", () => {
  it('cuts around the face: the analysed box scaled to the stored image, widened, kept inside it', () => {
    // Analysed at 320×240, stored at 640×480: twice the size.
    expect(faceCrop(face([100, 60, 40, 50]), { width: 320, height: 240 }, { width: 640, height: 480 })).toEqual({
      x: 172,
      y: 85,
      width: 136,
      height: 170,
    });
    // A face at the corner: the widened box stops at the image's edges.
    expect(faceCrop(face([0, 0, 100, 100]), { width: 320, height: 240 }, { width: 320, height: 240 })).toEqual({
      x: 0,
      y: 0,
      width: 135,
      height: 135,
    });
    // No box (older signals) or no analysed size: no crop, the page shows the image whole.
    expect(faceCrop({ yaw: 0, antispoof: null, liveness: null }, { width: 320, height: 240 }, { width: 640, height: 480 })).toBeNull();
    expect(faceCrop(face([1, 1, 10, 10]), {}, { width: 640, height: 480 })).toBeNull();
    expect(faceCrop(undefined, { width: 320, height: 240 }, { width: 640, height: 480 })).toBeNull();
  });

  it('gives each frame its own match with the document and its head turn, in step order', () => {
    const cards = faceCards({
      document: { width: 320, height: 240, face_count: 1, faces: [face([10, 10, 50, 60])] },
      frames: [
        { step: 1, pose: 'left', width: 240, height: 320, face_count: 1, faces: [face([5, 5, 40, 40], -0.35)], document_similarity: 0.38 },
        { step: 0, pose: 'front', width: 240, height: 320, face_count: 1, faces: [face([5, 5, 40, 40], 0.05)], document_similarity: 0.51 },
        { step: 2, pose: null, width: 240, height: 320, face_count: 0, faces: [], document_similarity: null },
      ],
      document_similarity: 0.45,
      frame_consistency: { min: 0.7, mean: 0.8 },
      thresholds,
      duration_ms: 100,
    })!;
    expect(cards.document).toMatchObject({ key: 'document', faceCount: 1, match: null, pose: null, analysed: { width: 320, height: 240 } });
    expect(cards.frames.map((c) => [c.key, c.match?.text, c.match?.passes, c.pose?.text ?? null])).toEqual([
      ['step-0', '0.51 — at or above 0.45, enough to approve', true, '3° to their right — must face the camera (within 9°)'],
      ['step-1', '0.38 — needs 0.45 to approve (below 0.30 declines)', false, '20° to their left — asked to turn left, at least 11°'],
      ['step-2', 'not measured: no face in this frame', false, null],
    ]);
    expect(faceCards({})).toBeNull();
  });
});

describe('the four-eyes zone conflict in words', () => {
  const detailOf = (difference: string) => identityErrors.zoneDiffersFromFirstApproval(difference).message;

  it('says what differs and what to do on the page, without the API’s paths and field names', () => {
    const printed = passportMrz();
    const slip = passportMrz({ expiry: '320101' });
    const words = zoneConflictWords(detailOf(zoneDifference(printed, slip)!));
    expect(words).toBe(
      'Not approved: the first approval carried a different machine-readable zone (a passport zone; they differ at line 2, characters 23 and 28). ' +
        'Your approval decides this case, so it must carry exactly the zone of the first approval — or no zone when that one carried none. ' +
        'Compare both under "Zone of the first approval", then approve with the same lines, or decline.',
    );
    expect(words).not.toMatch(/GET|first_approval|\/v1\//);
    expect(zoneConflictWords(detailOf(zoneDifference(null, printed)!))).toMatch(
      /^Not approved: the first approval carried no machine-readable zone and this approval carries one\. /,
    );
  });

  it('leaves any other refusal as the service wrote it', () => {
    expect(zoneConflictWords('Another reviewer holds this case until 13:15')).toBe('Another reviewer holds this case until 13:15');
  });
});
