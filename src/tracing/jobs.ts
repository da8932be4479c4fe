import type { FastifyPluginCallback } from 'fastify';

/**
 * How the job runner carries trace context (docs/operations.md, "Traces"): a job stores the traceparent of
 * the span that queued it, and its run is a span under that one. Without tracing (`untracedJobs`)
 * nothing is stored and a job runs as it is; the OpenTelemetry SDK is then never loaded.
 */
export interface JobTracing {
  /** The W3C traceparent of the active span, to store with a job queued now; undefined without one. */
  currentTraceParent(): string | undefined;
  /** Runs one attempt of a job inside its span, a child of the span that queued it when known. */
  runJob<T>(job: { id: string; queue: string; attempt: number; traceParent: string | null }, work: () => Promise<T>): Promise<T>;
}

export const untracedJobs: JobTracing = {
  currentTraceParent: () => undefined,
  runJob: (_job, work) => work(),
};

/** Tracing of the process when it is on: the request spans' plugin, the jobs' carrier, and the exporter's flush. */
export interface Tracing {
  /** Registered on the root instance before anything else, so every route and hook is traced. */
  plugin: FastifyPluginCallback;
  jobs: JobTracing;
  /** Sends the spans still buffered and stops. */
  shutdown(): Promise<void>;
}
