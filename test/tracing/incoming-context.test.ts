import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configFrom } from '../../src/config.js';
import { startTracing, type Tracing } from '../../src/tracing/start.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { startOtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const incoming = {
  traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`,
  tracestate: 'caller=opaque-value',
  baggage: 'tenant=someone-else,role=admin',
};

let collector: Awaited<ReturnType<typeof startOtlpReceiver>>;
const saved = { endpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT, delay: process.env.OTEL_BSP_SCHEDULE_DELAY };

beforeAll(async () => {
  collector = await startOtlpReceiver();
  // The exporter reads its endpoint from the environment, as in a real process.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
});

afterAll(async () => {
  await collector?.close();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved.endpoint;
  process.env.OTEL_BSP_SCHEDULE_DELAY = saved.delay;
  if (saved.endpoint === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (saved.delay === undefined) delete process.env.OTEL_BSP_SCHEDULE_DELAY;
});

/** Starts tracing as the server does, with the given trust; each case registers its own globals. */
async function traced(trust: string | undefined): Promise<Tracing> {
  const config = configFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_TRUST_INCOMING_CONTEXT: trust });
  const tracing = await startTracing(config);
  if (!tracing) throw new Error('tracing did not start');
  return tracing;
}

let tracing: Tracing | undefined;
let t: TestContext | undefined;

afterEach(async () => {
  await t?.close();
  await tracing?.shutdown();
  t = undefined;
  tracing = undefined;
  // The next case registers a provider and a propagator of its own.
  trace.disable();
  propagation.disable();
  context.disable();
  collector.spans.length = 0;
});

async function requestSpan(headers: Record<string, string>): Promise<ReceivedSpan> {
  t = await buildTestApp({ tracing });
  const res = await t.app.inject({ method: 'GET', url: '/v1/crypto/keys', headers });
  expect(res.statusCode).toBe(200);
  await tracing!.shutdown(); // flushes the batch
  const span = collector.spans.find((s) => s.kind === 2 && s.attributes['http.route'] === '/v1/crypto/keys'); // SERVER
  if (!span) throw new Error(`no request span; spans: ${collector.spans.map((s) => s.name).join(', ')}`);
  return span;
}

describe('incoming trace context', () => {
  // Each of these builds an app: generous timeouts for a busy machine.
  it('is ignored by default: the request starts a trace of its own and carries no caller baggage', { timeout: 120_000 }, async () => {
    tracing = await traced(undefined);
    expect(propagation.getBaggage(propagation.extract(ROOT_CONTEXT, incoming))).toBeUndefined();
    expect(trace.getSpanContext(propagation.extract(ROOT_CONTEXT, incoming))).toBeUndefined();
    const span = await requestSpan(incoming);
    expect(span.traceId).not.toBe(CALLER_TRACE);
    expect(span.parentSpanId || undefined).toBeUndefined();
  });

  it('is ignored with OTEL_TRUST_INCOMING_CONTEXT=false', async () => {
    tracing = await traced('false');
    // What @fastify/otel does with a request's headers, without building a second app.
    expect(propagation.getBaggage(propagation.extract(ROOT_CONTEXT, incoming))).toBeUndefined();
    expect(trace.getSpanContext(propagation.extract(ROOT_CONTEXT, incoming))).toBeUndefined();
  });

  it('is followed with OTEL_TRUST_INCOMING_CONTEXT=true: the request span continues the caller trace', { timeout: 120_000 }, async () => {
    tracing = await traced('true');
    expect(propagation.getBaggage(propagation.extract(ROOT_CONTEXT, incoming))?.getEntry('tenant')?.value).toBe('someone-else');
    const span = await requestSpan(incoming);
    expect(span.traceId).toBe(CALLER_TRACE);
    expect(span.parentSpanId).toBe(CALLER_SPAN);
  });

  it('still links a job to the span that queued it when incoming context is ignored', async () => {
    tracing = await traced(undefined);
    const jobs = tracing.jobs;
    const tracer = trace.getTracerProvider().getTracer('test');
    let queuedBy: string | undefined;
    let parent: { traceId: string; spanId: string } | undefined;
    tracer.startActiveSpan('queue it', (span) => {
      parent = span.spanContext();
      queuedBy = jobs.currentTraceParent();
      span.end();
    });
    expect(queuedBy).toBe(`00-${parent!.traceId}-${parent!.spanId}-01`);
    await jobs.runJob({ id: 'j1', queue: 'webhooks.deliver', attempt: 1, traceParent: queuedBy! }, async () => undefined);
    // A stored value that is not a traceparent starts a trace of its own instead of failing the job.
    await jobs.runJob({ id: 'j2', queue: 'webhooks.deliver', attempt: 1, traceParent: 'garbage' }, async () => undefined);
    await tracing.shutdown();
    const runs = collector.spans.filter((s) => s.name === 'process webhooks.deliver');
    const linked = runs.find((s) => s.attributes['messaging.message.id'] === 'j1');
    const fresh = runs.find((s) => s.attributes['messaging.message.id'] === 'j2');
    expect(linked?.traceId).toBe(parent!.traceId);
    expect(linked?.parentSpanId).toBe(parent!.spanId);
    expect(fresh?.traceId).not.toBe(parent!.traceId);
    expect(fresh?.parentSpanId || undefined).toBeUndefined();
  });
});

describe('OTEL_TRUST_INCOMING_CONTEXT', () => {
  it('defaults to false and accepts only a boolean', () => {
    expect(configFrom({}).OTEL_TRUST_INCOMING_CONTEXT).toBe(false);
    expect(configFrom({ OTEL_TRUST_INCOMING_CONTEXT: 'true' }).OTEL_TRUST_INCOMING_CONTEXT).toBe(true);
    expect(() => configFrom({ OTEL_TRUST_INCOMING_CONTEXT: 'yes' })).toThrow(/OTEL_TRUST_INCOMING_CONTEXT/);
  });
});
