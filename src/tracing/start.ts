import type { Config } from '../config.js';
import type { Tracing } from './jobs.js';

export type { Tracing } from './jobs.js';

/**
 * Traces over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md, "Traces"); the standard
 * OTEL_* variables (service name, headers, batch delays) apply. Unset, the OpenTelemetry SDK is
 * not even loaded: the import below is the only way to it.
 */
export async function startTracing(
  config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_TRUST_INCOMING_CONTEXT'>,
): Promise<Tracing | undefined> {
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  const { startOpenTelemetry } = await import('./sdk.js');
  return startOpenTelemetry({ trustIncomingContext: config.OTEL_TRUST_INCOMING_CONTEXT });
}
