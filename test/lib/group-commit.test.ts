import { describe, expect, it } from 'vitest';
import { createGroupCommit } from '../../src/lib/group-commit.js';
import { gate } from '../helpers/gate.js';

describe('group commit (src/lib/group-commit.ts)', () => {
  it('runs items that arrive together as one batch, and those that arrive during it as the next', async () => {
    const batches: number[][] = [];
    const held = gate();
    const group = createGroupCommit<number, number>(async (_key, items) => {
      batches.push(items);
      if (batches.length === 1) await held.opened;
      return items.map((n) => n * 10);
    }, 64);
    const first = [1, 2, 3].map((n) => group.add('k', n));
    // The first batch starts on the next macrotask and waits; these arrive while it runs.
    await new Promise((r) => setImmediate(r));
    const later = [4, 5].map((n) => group.add('k', n));
    held.open();
    expect(await Promise.all([...first, ...later])).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('keeps keys apart: one key waiting on its batch does not hold another', async () => {
    const held = gate();
    const group = createGroupCommit<string, string>(async (key, items) => {
      if (key === 'slow') await held.opened;
      return items.map((i) => `${key}:${i}`);
    }, 64);
    const slow = group.add('slow', 'a');
    expect(await group.add('quick', 'b')).toBe('quick:b');
    held.open();
    expect(await slow).toBe('slow:a');
  });

  it('fails every item of a batch that throws, and the next batch runs anyway', async () => {
    let calls = 0;
    const group = createGroupCommit<number, number>(async (_key, items) => {
      calls += 1;
      if (calls === 1) throw new Error('the statement failed');
      return items;
    }, 64);
    const failed = await Promise.allSettled([group.add('k', 1), group.add('k', 2)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await group.add('k', 3)).toBe(3);
  });

  it('splits a queue longer than the largest batch', async () => {
    const sizes: number[] = [];
    const group = createGroupCommit<number, number>(async (_key, items) => {
      sizes.push(items.length);
      return items;
    }, 2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => group.add('k', n)))).toEqual([1, 2, 3, 4, 5]);
    expect(sizes).toEqual([2, 2, 1]);
  });
});
