import { consistent } from '../governance/witness/consistency.js';
import { readCheckpointBody, signedBy, splitNote, type NoteKey } from '../lib/signed-note.js';
import type { AddCheckpoint } from '../governance/witness/protocol.js';

/**
 * What a witness answers to add-checkpoint (C2SP `tlog-witness`), pure: the checks in the
 * spec's order against the latest checkpoint it cosigned for the origin. Nothing here writes;
 * the server persists `accept` before it answers (src/witness/server.ts).
 */

/** The latest checkpoint the witness cosigned for one origin. */
export interface Seen {
  size: number;
  /** Base64 root hash. */
  root: string;
}

export type Verdict =
  | { status: 200; origin: string; body: string; accept: Seen }
  | { status: 409; size: number; reason: string }
  | { status: 400 | 403 | 404 | 422; reason: string };

export function judge(request: AddCheckpoint, logs: ReadonlyMap<string, NoteKey[]>, seen: (origin: string) => Seen | undefined): Verdict {
  const note = splitNote(request.note);
  const checkpoint = note && readCheckpointBody(note.body);
  if (!note || !checkpoint) return { status: 400, reason: 'the checkpoint is not a signed note of a tlog-checkpoint' };
  const keys = logs.get(checkpoint.origin);
  if (!keys) return { status: 404, reason: `unknown log origin ${checkpoint.origin}` };
  // Signatures of unknown keys (other witnesses' cosignatures among them) are ignored.
  if (!keys.some((key) => signedBy(note.body, note.signatures, key))) {
    return { status: 403, reason: 'no signature by a trusted key of the log verifies' };
  }
  if (request.oldSize > checkpoint.size)
    return { status: 400, reason: `old ${request.oldSize} is beyond the checkpoint's size ${checkpoint.size}` };
  const latest = seen(checkpoint.origin) ?? { size: 0, root: '' };
  // A rollback (a smaller tree) always lands here: its old size cannot be the latest one cosigned.
  if (request.oldSize !== latest.size) {
    return { status: 409, size: latest.size, reason: `old ${request.oldSize} is not the latest cosigned size ${latest.size}` };
  }
  const root = checkpoint.root.toString('base64');
  if (request.oldSize === 0) {
    if (request.proof.length > 0) return { status: 422, reason: 'the proof must be empty from size 0' };
  } else if (request.oldSize === checkpoint.size) {
    // The same size with another root: a fork of the log.
    if (root !== latest.root) return { status: 409, size: latest.size, reason: `a different root for size ${checkpoint.size}: a fork` };
    if (request.proof.length > 0) return { status: 422, reason: 'the proof must be empty between equal sizes' };
  } else if (!consistent(request.oldSize, Buffer.from(latest.root, 'base64'), checkpoint.size, checkpoint.root, request.proof)) {
    return { status: 422, reason: `the consistency proof from ${request.oldSize} to ${checkpoint.size} does not verify` };
  }
  return { status: 200, origin: checkpoint.origin, body: note.body, accept: { size: checkpoint.size, root } };
}
