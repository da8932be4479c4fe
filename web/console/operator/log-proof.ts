/**
 * A record's inclusion in a transparency-log checkpoint, checked in the browser with Web Crypto
 * (docs/governance.md, "Transparency log"): the leaf hash of the record's canonical JSON, folded with the
 * inclusion proof the API gives as RFC 9162 §2.1.3.2 says, must give the checkpoint's root. The
 * hashing is src/governance/merkle.ts's (leaf: SHA-256(0x00 ‖ leaf), node: SHA-256(0x01 ‖ left ‖
 * right)); that file hashes with node:crypto, so the browser's own copy is here, and
 * test/admin/console-reads.test.ts checks it against the server's proofs.
 */

const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const toBase64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) all.set(p, (at += p.length) - p.length);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', all));
}

const leafHash = (leaf: Uint8Array) => sha256(Uint8Array.of(0), leaf);
const nodeHash = (left: Uint8Array, right: Uint8Array) => sha256(Uint8Array.of(1), left, right);

/** The root an inclusion proof of `leafHash` at `index` in a tree of `size` leaves leads to; null when the proof cannot be one. */
async function rootFromInclusion(hash: Uint8Array, index: number, size: number, proof: Uint8Array[]): Promise<Uint8Array | null> {
  if (!(index >= 0 && index < size)) return null;
  let fn = index;
  let sn = size - 1;
  let r = hash;
  for (const p of proof) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = await nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = await nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

export interface InclusionAnswer {
  leaf_index: number;
  tree_size: number;
  leaf_hash: string;
  proof: string[];
}

/**
 * Whether `leaf` (the record's canonical JSON) is in the tree whose root is `root` (base64, from
 * the checkpoint): `leafMatches` says the leaf hashes to the proof's leaf_hash, `root` is the
 * root the proof leads to (null when it leads nowhere).
 */
export async function verifyInclusion(
  leaf: string,
  inclusion: InclusionAnswer,
  root: string,
): Promise<{ ok: boolean; leafMatches: boolean; root: string | null }> {
  const hash = await leafHash(new TextEncoder().encode(leaf));
  const leafMatches = toBase64(hash) === inclusion.leaf_hash;
  const reached = await rootFromInclusion(hash, inclusion.leaf_index, inclusion.tree_size, inclusion.proof.map(fromBase64));
  const computed = reached ? toBase64(reached) : null;
  return { ok: leafMatches && computed === root, leafMatches, root: computed };
}

/** A C2SP checkpoint note's body: origin, tree size and root (base64). */
export function readCheckpoint(note: string): { origin: string; size: number; root: string } | null {
  const [origin, size, root] = (note.split('\n\n')[0] ?? '').split('\n');
  if (!origin || !size || !root || !/^\d+$/.test(size)) return null;
  return { origin, size: Number(size), root };
}
