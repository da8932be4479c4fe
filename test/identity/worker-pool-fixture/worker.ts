/** A worker for test/identity/worker-pool.test.ts: each task names what the thread does with it. */
export default function work(task: { kind: 'answer' | 'spin' | 'throw' | 'exit' | 'heap'; value?: number }): number {
  switch (task.kind) {
    case 'answer':
      return (task.value ?? 0) * 2;
    case 'spin':
      // Stuck in synchronous work: only terminating the thread ends it.
      for (;;);
    case 'throw':
      throw new Error('the task itself failed');
    case 'exit':
      process.exit(3);
    case 'heap': {
      // Grows the thread's heap until its resourceLimits end it.
      const hoard: object[][] = [];
      for (;;) hoard.push(new Array<object>(1_000_000).fill({ n: hoard.length }));
    }
  }
}
