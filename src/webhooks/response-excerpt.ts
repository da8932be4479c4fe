/**
 * The start of a receiver's answer body, as the delivery log keeps it (docs/webhooks.md, "Webhooks"): a
 * bounded excerpt, so a receiver that answers megabytes cannot fill the database. Pure, so the
 * bound and the decoding are tested without a socket.
 */

/** Bytes of the answer body kept per attempt; the OpenAPI description of the delivery detail says this number. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** What the log keeps of an answer's body. */
export interface ResponseExcerpt {
  /** The first RESPONSE_EXCERPT_BYTES bytes as UTF-8 text (at most that many characters). */
  body: string;
  /** The body went on past the excerpt, or was cut off before it ended. */
  truncated: boolean;
}

const REPLACEMENT = '\uFFFD';

/**
 * Collects an answer's body chunk by chunk up to the bound. `add` answers true once the excerpt
 * is full (more bytes came than it keeps), after which the rest need not be looked at.
 */
export class ExcerptCollector {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit = RESPONSE_EXCERPT_BYTES) {}

  add(chunk: Buffer): boolean {
    if (this.full) return true;
    // One byte past the limit is kept, to know that the body went on.
    const room = this.limit + 1 - this.size;
    const taken = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(taken);
    this.size += taken.length;
    return this.full;
  }

  get full(): boolean {
    return this.size > this.limit;
  }

  /** The excerpt; `ended` says whether the body's end was seen (otherwise it counts as cut off). */
  result(ended: boolean): ResponseExcerpt {
    const bytes = Buffer.concat(this.chunks);
    const truncated = this.full || !ended;
    return { body: excerptText(bytes.subarray(0, this.limit), truncated), truncated };
  }
}

/**
 * Bytes as text: invalid UTF-8 becomes U+FFFD; a character the cut split in two is dropped
 * rather than shown as a broken one; NUL becomes U+FFFD too (PostgreSQL text cannot hold it).
 */
export function excerptText(bytes: Uint8Array, cut: boolean): string {
  const text = new TextDecoder('utf-8').decode(bytes, { stream: cut });
  return text.replaceAll('\u0000', REPLACEMENT);
}
