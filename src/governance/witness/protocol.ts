/**
 * The body of C2SP `tlog-witness` add-checkpoint, pure: an `old <size>` line, at most 63
 * consistency proof lines (base64 hashes), a blank line, then the signed checkpoint note.
 */

/** Proof lines a request may carry at most. */
export const MAX_PROOF_LINES = 63;
/** The media type of a 409 answer's body: the witness's latest cosigned size and a newline. */
export const SIZE_MEDIA_TYPE = 'text/x.tlog.size';

export function addCheckpointBody(oldSize: number, proof: string[], note: string): string {
  return `old ${oldSize}\n${proof.map((hash) => `${hash}\n`).join('')}\n${note}`;
}

export interface AddCheckpoint {
  oldSize: number;
  proof: Buffer[];
  note: string;
}

/** Reads an add-checkpoint body; a string saying what is wrong when it is not one. */
export function readAddCheckpoint(text: string): AddCheckpoint | string {
  const match = /^old (0|[1-9]\d{0,15})\n/.exec(text);
  if (!match) return 'the body must start with "old <size>"';
  const oldSize = Number(match[1]);
  const proof: Buffer[] = [];
  let at = match[0].length;
  for (;;) {
    const end = text.indexOf('\n', at);
    if (end < 0) return 'the proof lines must end with a blank line before the checkpoint';
    const line = text.slice(at, end);
    at = end + 1;
    if (line === '') break;
    if (!/^[A-Za-z0-9+/]{43}=$/.test(line)) return 'a consistency proof line is not a base64 SHA-256 hash';
    if (proof.length === MAX_PROOF_LINES) return `more than ${MAX_PROOF_LINES} consistency proof lines`;
    proof.push(Buffer.from(line, 'base64'));
  }
  return { oldSize, proof, note: text.slice(at) };
}

/** The size in a 409 answer's body, or null when the body is not one. */
export function readConflictSize(text: string): number | null {
  const match = /^(0|[1-9]\d{0,15})\n$/.exec(text);
  return match ? Number(match[1]) : null;
}
