import { createHash } from 'node:crypto';

/**
 * The transparency log's Merkle tree math (RFC 9162 §2.1), pure. Leaves are the records in seq
 * order (leaf index = seq - 1). What is stored is the scheme of Go's sumdb/tlog: the root of
 * every perfect, aligned subtree, kept with the record of its last leaf. A subtree is named by
 * (level, index): it covers leaves [index · 2^level, (index + 1) · 2^level). Any range a proof
 * names splits into O(log n) such subtrees, so a proof reads O(log n) stored hashes.
 */

const HASH_SIZE = 32;

/** An aligned perfect subtree: leaves [index · 2^level, (index + 1) · 2^level). */
export interface Subtree {
  level: number;
  index: number;
}

/** A run of leaves [lo, hi) whose Merkle tree hash a proof carries. */
export interface LeafRange {
  lo: number;
  hi: number;
}

export function leafHash(leaf: Uint8Array): Buffer {
  return createHash('sha256').update(Buffer.of(0)).update(leaf).digest();
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash('sha256').update(Buffer.of(1)).update(left).update(right).digest();
}

/** MTH of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT = createHash('sha256').digest();

const pow2 = (level: number) => 2 ** level;

/** The largest power of two strictly below n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The seq of the record that keeps a subtree's root: the one of its last leaf. */
export function keeperSeq(subtree: Subtree): number {
  return (subtree.index + 1) * pow2(subtree.level);
}

/**
 * [lo, hi) as the aligned perfect subtrees it is made of, left to right (largest first): the
 * ranges of RFC 9162 proofs always start on a boundary of the largest subtree they hold, so
 * their hash is these subtrees' roots folded from the right (rangeHash).
 */
export function subtreesOf({ lo, hi }: LeafRange): Subtree[] {
  const parts: Subtree[] = [];
  let at = lo;
  while (at < hi) {
    let level = 0;
    while (at % pow2(level + 1) === 0 && at + pow2(level + 1) <= hi) level++;
    parts.push({ level, index: at / pow2(level) });
    at += pow2(level);
  }
  return parts;
}

/** The Merkle tree hash of consecutive subtree roots (largest first), as RFC 9162 defines MTH. */
export function foldRoots(roots: Uint8Array[]): Buffer {
  if (roots.length === 0) return EMPTY_ROOT;
  let hash: Buffer = Buffer.from(roots[roots.length - 1]!);
  for (let i = roots.length - 2; i >= 0; i--) hash = nodeHash(roots[i]!, hash);
  return hash;
}

/**
 * Appends one leaf to a tree whose right edge is `frontier` (the roots of the subtrees making up
 * the tree of size `size`, largest first): the hashes the new leaf's record keeps (its leaf hash,
 * then each subtree it completes, smallest first) and the new right edge.
 */
export function appendLeaf(frontier: Buffer[], size: number, leaf: Buffer): { stored: Buffer[]; frontier: Buffer[] } {
  const edge = frontier.slice();
  const stored = [leaf];
  let hash = leaf;
  // A leaf completes one subtree for each trailing 1 bit of the old size.
  for (let rest = size; rest % 2 === 1; rest = Math.floor(rest / 2)) {
    hash = nodeHash(edge.pop()!, hash);
    stored.push(hash);
  }
  edge.push(hash);
  return { stored, frontier: edge };
}

/** The subtrees making up a tree of `size` leaves, largest first (its right edge). */
export function frontierOf(size: number): Subtree[] {
  return subtreesOf({ lo: 0, hi: size });
}

/**
 * The ranges whose hashes form the inclusion proof of leaf `index` in a tree of `size` leaves
 * (RFC 9162 §2.1.3.1, PATH), in proof order.
 */
export function inclusionRanges(index: number, size: number): LeafRange[] {
  if (!(index >= 0 && index < size)) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  const path = (m: number, lo: number, hi: number): LeafRange[] => {
    if (hi - lo === 1) return [];
    const k = splitPoint(hi - lo);
    return m < lo + k ? [...path(m, lo, lo + k), { lo: lo + k, hi }] : [...path(m, lo + k, hi), { lo, hi: lo + k }];
  };
  return path(index, 0, size);
}

/**
 * The ranges whose hashes form the consistency proof between the trees of `from` and `to` leaves
 * (RFC 9162 §2.1.4.1, PROOF = SUBPROOF(m, D[n], true)), in proof order; empty when equal.
 */
export function consistencyRanges(from: number, to: number): LeafRange[] {
  if (!(from >= 1 && from <= to)) throw new RangeError(`no consistency proof from ${from} to ${to}`);
  const subproof = (m: number, lo: number, hi: number, complete: boolean): LeafRange[] => {
    if (m === hi - lo) return complete ? [] : [{ lo, hi }];
    const k = splitPoint(hi - lo);
    return m <= k
      ? [...subproof(m, lo, lo + k, complete), { lo: lo + k, hi }]
      : [...subproof(m - k, lo + k, hi, false), { lo, hi: lo + k }];
  };
  return subproof(from, 0, to, true);
}

/** Every subtree the ranges are made of, once each. */
export function subtreesNeeded(ranges: LeafRange[]): Subtree[] {
  const seen = new Map<string, Subtree>();
  for (const range of ranges) for (const s of subtreesOf(range)) seen.set(`${s.level}/${s.index}`, s);
  return [...seen.values()];
}

/** The hash of each range from the roots of its subtrees (`rootOf` answers a stored root). */
export function rangeHashes(ranges: LeafRange[], rootOf: (subtree: Subtree) => Buffer): Buffer[] {
  return ranges.map((range) => foldRoots(subtreesOf(range).map(rootOf)));
}

/** Stored hashes (32 bytes each, concatenated) as a list. */
export function splitHashes(stored: Uint8Array): Buffer[] {
  const hashes: Buffer[] = [];
  for (let at = 0; at < stored.length; at += HASH_SIZE) hashes.push(Buffer.from(stored.subarray(at, at + HASH_SIZE)));
  return hashes;
}
