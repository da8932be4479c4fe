import type { JobQueue } from './types.js';

/**
 * The queue of an API-only instance (ROLE=api, docs/operations.md "Roles"): it adds jobs, inside the
 * transactions of the changes they belong to, and never runs one. No handler is kept, the runner
 * never starts and a drain runs nothing: the worker instances on the same database run them.
 */
export function enqueueOnly(queue: JobQueue): JobQueue {
  return {
    ...queue,
    handle: () => {},
    drain: async () => 0,
    start: async () => {},
    stop: async () => {},
  };
}
