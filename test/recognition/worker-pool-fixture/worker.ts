/** A worker for test/recognition/worker-pool.test.ts: each task names what the thread does with it. */
export default function work(task: { kind: 'answer' | 'spin' | 'throw' | 'exit' | 'heap'; value?: number }): number {
  if (task.kind === 'throw') throw new Error('the task itself failed');
  if (task.kind === 'exit') process.exit(3);
  if (task.kind === 'spin') {
    // Stuck in synchronous work: only terminating the thread ends it.
    for (;;);
  }
  if (task.kind === 'heap') {
    // Grows the thread's heap until its resourceLimits end it.
    const hoard: object[][] = [];
    for (;;) hoard.push(new Array<object>(1_000_000).fill({ n: hoard.length }));
  }
  return (task.value ?? 0) * 2;
}
