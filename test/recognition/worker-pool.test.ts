import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerPool, WorkerCrashed, WorkTimedOut } from '../../src/recognition/worker-pool.js';
import { skippedOnPostgres } from '../helpers/once.js';

/**
 * The deadline and the crash handling every identity engine runs under (docs/identity.md, "Bounded identity
 * work"), on a pool over a worker that does what each task asks: answer, spin forever, throw, exit.
 */
describe.skipIf(skippedOnPostgres())(
  'worker pool: every task under a deadline, a stuck or dead thread replaced',
  { timeout: 60_000 },
  () => {
    const pool = createWorkerPool({
      beside: new URL('./worker-pool-fixture/worker.ts', import.meta.url).href,
      threads: 1,
      work: 'test work',
      // Small, so that the heap test reaches it in a moment.
      heapMb: 64,
    });
    afterAll(() => pool.close());

    it('answers a task that finishes in time', async () => {
      expect(await pool.run<number>({ kind: 'answer', value: 21 }, 10_000)).toBe(42);
    });

    it('terminates a thread stuck past its deadline with WorkTimedOut, and the next task runs on a fresh thread', async () => {
      await pool.run({ kind: 'answer', value: 1 }, 10_000);
      const before = pool.threads[0];
      const started = Date.now();
      const stuck = pool.run({ kind: 'spin' }, 500);
      await expect(stuck).rejects.toBeInstanceOf(WorkTimedOut);
      await expect(stuck).rejects.toThrow('test work took longer than 500 ms');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await pool.run<number>({ kind: 'answer', value: 2 }, 10_000)).toBe(4);
      expect(pool.threads).toHaveLength(1);
      expect(pool.threads[0]).not.toBe(before);
    });

    it('counts the deadline from when a thread takes the task, not while it waits for one', async () => {
      const first = pool.run({ kind: 'spin' }, 8_000);
      // Queued behind the stuck task for 8 s, then done as soon as the fresh thread is up: its 6 s must not have run out.
      const second = pool.run<number>({ kind: 'answer', value: 5 }, 6_000);
      await expect(first).rejects.toBeInstanceOf(WorkTimedOut);
      expect(await second).toBe(10);
    });

    it('rejects with WorkerCrashed when the thread ends under the task, and replaces it', async () => {
      const exited = pool.run({ kind: 'exit' }, 10_000);
      await expect(exited).rejects.toBeInstanceOf(WorkerCrashed);
      await expect(exited).rejects.toThrow(/test work worker ended during the task: worker exited with code: 3/);
      expect(await pool.run<number>({ kind: 'answer', value: 3 }, 10_000)).toBe(6);
    });

    it('counts a task as running only once a started thread holds it: ending that thread then fails the task at once', async () => {
      await expect(pool.run({ kind: 'exit' }, 10_000)).rejects.toBeInstanceOf(WorkerCrashed);
      // The replacement thread is still starting: the task waits in the pool, no thread holds it.
      const stuck = pool.run({ kind: 'spin' }, 60_000);
      await new Promise((r) => setImmediate(r));
      expect({ running: pool.running, waiting: pool.waiting }).toEqual({ running: 0, waiting: 1 });
      while (pool.running === 0) await new Promise((r) => setTimeout(r, 5));
      expect({ running: pool.running, waiting: pool.waiting }).toEqual({ running: 1, waiting: 0 });
      // Ended under the task, the thread fails it as a crash, long before its deadline.
      const started = Date.now();
      await Promise.all(pool.threads.map((t) => t.terminate()));
      await expect(stuck).rejects.toBeInstanceOf(WorkerCrashed);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect({ running: pool.running, waiting: pool.waiting }).toEqual({ running: 0, waiting: 0 });
      expect(await pool.run<number>({ kind: 'answer', value: 5 }, 10_000)).toBe(10);
    });

    it('ends a thread whose heap grows past its limit, not the process', async () => {
      await expect(pool.run({ kind: 'heap' }, 30_000)).rejects.toBeInstanceOf(WorkerCrashed);
      expect(await pool.run<number>({ kind: 'answer', value: 4 }, 10_000)).toBe(8);
    });

    it('passes an error the task threw as it is: the thread is fine', async () => {
      const threw = pool.run({ kind: 'throw' }, 10_000);
      await expect(threw).rejects.not.toBeInstanceOf(WorkerCrashed);
      await expect(threw).rejects.toThrow('the task itself failed');
    });
  },
);
