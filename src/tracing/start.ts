import type { FastifyPluginCallback } from 'fastify';
import type { Config } from '../config.js';
import type { JobTracing } from './jobs.js';

/** Tracing of the process when it is on: the request spans' plugin, the jobs' carrier, and the exporter's flush. */
export interface Tracing {
  /** Registered on the root instance before anything else, so every route and hook is traced. */
  plugin: FastifyPluginCallback;
  jobs: JobTracing;
  /** Sends the spans still buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * Traces over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (README, "Traces"); the standard
 * OTEL_* variables (service name, headers, batch delays) apply. Unset, the OpenTelemetry SDK is
 * not even loaded: the import below is the only way to it.
 */
export async function startTracing(config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT'>): Promise<Tracing | undefined> {
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  const { startOpenTelemetry } = await import('./sdk.js');
  return startOpenTelemetry();
}
