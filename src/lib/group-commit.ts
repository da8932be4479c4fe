/**
 * Group commit: work items that arrive while a batch of their key is running wait in memory and
 * run together as that key's next batch, so N concurrent callers cost about one round trip per
 * batch instead of N. The first item of a key starts its batch on the next macrotask, so items
 * that arrive together (jobs claimed in one statement, requests read in one poll) share it. A
 * batch that throws rejects each of its items; `runBatch` answers one result per item, in order.
 */
interface GroupCommit<I, O> {
  add(key: string, item: I): Promise<O>;
}

interface Waiting<I, O> {
  item: I;
  resolve: (out: O) => void;
  reject: (err: unknown) => void;
}

export function createGroupCommit<I, O>(runBatch: (key: string, items: I[]) => Promise<O[]>, maxBatch: number): GroupCommit<I, O> {
  const queues = new Map<string, Waiting<I, O>[]>();

  /** Runs batches of the key's queue until it is empty; the queue is removed when done. */
  async function drain(key: string, queue: Waiting<I, O>[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        const results = await runBatch(
          key,
          batch.map((w) => w.item),
        );
        batch.forEach((w, i) => w.resolve(results[i]!));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    queues.delete(key);
  }

  return {
    add(key, item) {
      return new Promise<O>((resolve, reject) => {
        const waiting = { item, resolve, reject };
        const queue = queues.get(key);
        if (queue) {
          queue.push(waiting);
          return;
        }
        const fresh = [waiting];
        queues.set(key, fresh);
        setImmediate(() => void drain(key, fresh));
      });
    },
  };
}
