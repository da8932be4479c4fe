import { createHash } from 'node:crypto';

/**
 * RFC 9162 §2.1 written out literally over the leaves: the reference the stored scheme is checked
 * against. Slow on purpose (every hash from the leaves); tests only.
 */
const hash = (...parts: Uint8Array[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const largestPow2Below = (n: number) => 2 ** Math.floor(Math.log2(n - 1));

export function mth(leaves: Uint8Array[]): Buffer {
  if (leaves.length === 0) return hash();
  if (leaves.length === 1) return hash(Buffer.of(0), leaves[0]!);
  const k = largestPow2Below(leaves.length);
  return hash(Buffer.of(1), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

export function path(m: number, leaves: Uint8Array[]): Buffer[] {
  if (leaves.length === 1) return [];
  const k = largestPow2Below(leaves.length);
  return m < k ? [...path(m, leaves.slice(0, k)), mth(leaves.slice(k))] : [...path(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
}

function subproof(m: number, leaves: Uint8Array[], complete: boolean): Buffer[] {
  if (m === leaves.length) return complete ? [] : [mth(leaves)];
  const k = largestPow2Below(leaves.length);
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), complete), mth(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))];
}

export function consistency(m: number, leaves: Uint8Array[]): Buffer[] {
  return subproof(m, leaves, true);
}
