import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendLeaf,
  consistencyRanges,
  EMPTY_ROOT,
  foldRoots,
  frontierOf,
  inclusionRanges,
  keeperSeq,
  leafHash,
  nodeHash,
  rangeHashes,
  subtreesNeeded,
  subtreesOf,
  type Subtree,
} from '../../src/governance/merkle.js';
import { consistency, mth, path } from './rfc9162.js';

/** The log as the service stores it: each leaf's kept hashes by seq, and the right edge. */
function storedLog(size: number) {
  const leaves = Array.from({ length: size }, (_, i) => Buffer.from(`{"seq":${i + 1}}`));
  const kept = new Map<number, Buffer[]>();
  let frontier: Buffer[] = [];
  leaves.forEach((leaf, i) => {
    const next = appendLeaf(frontier, i, leafHash(leaf));
    kept.set(i + 1, next.stored);
    frontier = next.frontier;
  });
  const rootOf = (s: Subtree) => kept.get(keeperSeq(s))![s.level]!;
  return { leaves, kept, frontier, rootOf };
}

const SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33];

describe('the transparency log tree', () => {
  it('hashes the empty tree as SHA-256 of nothing and leaves and nodes with their RFC 9162 prefixes', () => {
    expect(EMPTY_ROOT.toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(foldRoots([])).toEqual(EMPTY_ROOT);
    expect(leafHash(Buffer.from('a'))).toEqual(
      createHash('sha256')
        .update(Buffer.from([0, 0x61]))
        .digest(),
    );
    const l = Buffer.alloc(32, 1);
    const r = Buffer.alloc(32, 2);
    expect(nodeHash(l, r)).toEqual(
      createHash('sha256')
        .update(Buffer.concat([Buffer.of(1), l, r]))
        .digest(),
    );
  });

  it.each(SIZES)('keeps about two hashes per record and the right edge folds to the root (size %i)', (size) => {
    const log = storedLog(size);
    expect(foldRoots(log.frontier)).toEqual(mth(log.leaves));
    expect(frontierOf(size).map(log.rootOf)).toEqual(log.frontier);
    const total = [...log.kept.values()].reduce((n, hashes) => n + hashes.length, 0);
    expect(total).toBeLessThan(2 * size);
    // Every perfect subtree is kept exactly once, by the record of its last leaf.
    for (let level = 0; 2 ** level <= size; level++) {
      for (let index = 0; (index + 1) * 2 ** level <= size; index++) {
        const lo = index * 2 ** level;
        expect(log.rootOf({ level, index })).toEqual(mth(log.leaves.slice(lo, lo + 2 ** level)));
      }
    }
  });

  it('answers every inclusion proof of RFC 9162 §2.1.3 from stored hashes', () => {
    for (const size of SIZES) {
      const log = storedLog(size);
      for (let tree = 1; tree <= size; tree++) {
        for (let m = 0; m < tree; m++) {
          const proof = rangeHashes(inclusionRanges(m, tree), log.rootOf);
          expect(proof).toEqual(path(m, log.leaves.slice(0, tree)));
        }
      }
    }
  });

  it('answers every consistency proof of RFC 9162 §2.1.4 from stored hashes', () => {
    for (const size of SIZES) {
      const log = storedLog(size);
      for (let to = 1; to <= size; to++) {
        for (let from = 1; from <= to; from++) {
          const proof = rangeHashes(consistencyRanges(from, to), log.rootOf);
          expect(proof).toEqual(consistency(from, log.leaves.slice(0, to)));
        }
      }
    }
  });

  it('needs O(log n) stored hashes per proof, whatever the sizes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const bound = 2 * Math.ceil(Math.log2(to + 1)) + 2;
        expect(subtreesNeeded(consistencyRanges(from, to)).length).toBeLessThanOrEqual(bound);
        expect(subtreesNeeded(inclusionRanges(from - 1, to)).length).toBeLessThanOrEqual(bound);
        // Each needed root lies inside the tree, so its keeper record exists.
        for (const s of subtreesNeeded(consistencyRanges(from, to))) expect(keeperSeq(s)).toBeLessThanOrEqual(to);
      }),
    );
  });

  it('splits a range into aligned perfect subtrees, largest first, covering it exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 20 }), fc.integer({ min: 1, max: 2 ** 20 }), (lo, length) => {
        const parts = subtreesOf({ lo, hi: lo + length });
        let at = lo;
        for (const p of parts) {
          expect(p.index * 2 ** p.level).toBe(at);
          at += 2 ** p.level;
        }
        expect(at).toBe(lo + length);
      }),
    );
  });

  it('refuses proofs outside the tree', () => {
    expect(() => inclusionRanges(3, 3)).toThrow(RangeError);
    expect(() => inclusionRanges(-1, 3)).toThrow(RangeError);
    expect(() => consistencyRanges(0, 3)).toThrow(RangeError);
    expect(() => consistencyRanges(4, 3)).toThrow(RangeError);
    expect(consistencyRanges(3, 3)).toEqual([]);
  });

  it('agrees with the reference on random logs and random pairs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.nat(), fc.nat(), (size, x, y) => {
        const log = storedLog(size);
        const to = (x % size) + 1;
        const from = (y % to) + 1;
        expect(rangeHashes(consistencyRanges(from, to), log.rootOf)).toEqual(consistency(from, log.leaves.slice(0, to)));
        expect(rangeHashes(inclusionRanges(from - 1, to), log.rootOf)).toEqual(path(from - 1, log.leaves.slice(0, to)));
      }),
      { numRuns: 50 },
    );
  });
});
