import { isSpanContextValid, TraceFlags, type SpanContext } from '@opentelemetry/api';

/**
 * The W3C `traceparent` a job stores (docs/operations.md, "Traces"), written and read here rather than by the
 * process's global propagator: that one reads callers' headers and is off unless
 * OTEL_TRUST_INCOMING_CONTEXT=true, while a job's own link to the span that queued it always holds.
 */
const TRACE_PARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export function formatTraceParent(span: SpanContext): string | undefined {
  if (!isSpanContextValid(span)) return undefined;
  const flags = (span.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  return `00-${span.traceId}-${span.spanId}-${flags}`;
}

/** The span context a stored traceparent names; undefined for anything that is not a valid version-00 value. */
export function parseTraceParent(value: string): SpanContext | undefined {
  const match = TRACE_PARENT.exec(value);
  if (!match) return undefined;
  const span: SpanContext = {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: parseInt(match[3]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(span) ? span : undefined;
}
