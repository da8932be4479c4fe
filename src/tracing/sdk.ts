import { createRequire } from 'node:module';
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { Tracing } from './jobs.js';
import { formatTraceParent, parseTraceParent } from './trace-parent.js';

/** Probes and scrapes would be most of the spans and tell nothing. */
const UNTRACED_PATHS = new Set(['/health', '/ready', '/metrics']);

/**
 * Patches the `pg` driver's client and pool in place. The instrumentation would hook `require`
 * for that, which sees only modules loaded after it and not this ESM process's import of `pg`;
 * patching the loaded module's prototypes works whenever tracing starts.
 */
function instrumentPg(instrumentation: PgInstrumentation): void {
  const require = createRequire(import.meta.url);
  const pgPath = require.resolve('pg');
  const loaded: Record<string, unknown> = { pg: require('pg'), 'pg-pool': createRequire(pgPath)('pg-pool') };
  for (const definition of instrumentation.getModuleDefinitions()) {
    const exports = loaded[definition.name];
    if (exports !== undefined) definition.patch?.(exports);
  }
}

export function startOpenTelemetry(options: { trustIncomingContext: boolean }): Tracing {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'partner-services' }))
    .merge(detectResources({ detectors: [envDetector] }));
  // The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (adding /v1/traces) and the other OTEL_EXPORTER_OTLP_* variables.
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  // AsyncLocalStorage: the active span follows a request into what it awaits. The W3C propagator
  // (traceparent, tracestate, baggage) is what reads a caller's headers: a caller could otherwise
  // choose our trace ids, hang our spans under its own trace and hand baggage to our code, so it is
  // registered only for a deployment that trusts the callers in front of it (docs/operations.md, "Traces").
  provider.register(options.trustIncomingContext ? {} : { propagator: null });

  // Queries outside any span (the job runner's polls) would each be a trace of their own.
  const pg = new PgInstrumentation({ enabled: false, requireParentSpan: true });
  pg.setTracerProvider(provider);
  instrumentPg(pg);

  const fastify = new FastifyOtelInstrumentation({ ignorePaths: ({ url }) => UNTRACED_PATHS.has(url) });
  fastify.setTracerProvider(provider);

  const tracer = provider.getTracer('partner-services/jobs');
  return {
    plugin: fastify.plugin(),
    jobs: {
      currentTraceParent() {
        const active = trace.getSpanContext(context.active());
        return active ? formatTraceParent(active) : undefined;
      },
      runJob(job, work) {
        // A job queued without a trace (a periodic job, tracing turned on later) starts its own.
        const queuedBy = job.traceParent ? parseTraceParent(job.traceParent) : undefined;
        const parent = queuedBy ? trace.setSpanContext(ROOT_CONTEXT, queuedBy) : ROOT_CONTEXT;
        const attributes = {
          'messaging.system': 'jobs',
          'messaging.destination.name': job.queue,
          'messaging.message.id': job.id,
          'job.attempt': job.attempt,
        };
        return tracer.startActiveSpan(`process ${job.queue}`, { kind: SpanKind.CONSUMER, attributes }, parent, async (span) => {
          try {
            return await work();
          } catch (err) {
            span.recordException(err instanceof Error ? err : String(err));
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw err;
          } finally {
            span.end();
          }
        });
      },
    },
    shutdown: () => provider.shutdown(),
  };
}
