// Hostile uploads (docs/identity.md, "Bounded identity work"): images built to hurt the image engines, each
// sent through a capture link of a server running its engines (FACE_CHECKS and DOCUMENT_READING on).
// Each must be refused at upload (422) or decided within HOSTILE_DECIDE_LIMIT_MS, the process alive
// with its RSS at most HOSTILE_RSS_RISE_LIMIT_MB above its resting size, and an ordinary verification started 2 s after the
// hostile ones decided in its usual time + 3 s. Shared by `npm run bench` and
// test/identity/hostile-uploads.test.ts.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { png } from '../scripts/fixtures/images.js';
import { blankStrip, jpegClaiming, noisePng, truncatedJpeg } from '../scripts/fixtures/hostile-images.js';
import { rssOf, sampleRss } from './processes.js';

export const HOSTILE_DECIDE_LIMIT_MS = 15_000;
/**
 * How far the hostile uploads may raise the process's RSS above its size just before the first of
 * them. The resting size is not theirs to bound: with both engines started and two ordinary
 * verifications read it ranged from 1,082 to 1,482 MiB across runs on the embedded store (the
 * engines' heaps grow with work and are not given back, differently from run to run; see
 * docs/benchmarks.md, "What makes the peak RSS"), while the uploads added 40 to 88 MiB. The blank
 * strip this test was written for was enlarged past 10 GB; a quarter of a GiB leaves room for the
 * noise PNG's decodings and still fails on any image that is enlarged or decoded again.
 */
export const HOSTILE_RSS_RISE_LIMIT_MB = 256;
export const HOSTILE_AFTERMATH_SLACK_MS = 3_000;

export interface HostileCase {
  name: string;
  /** The document part it is sent as: the portrait side (`file`) or an ID card's `back`. */
  field: 'file' | 'back';
  make(): Buffer | Promise<Buffer>;
  /**
   * The review reason of an upload that is taken: a pipeline fault where an engine cannot decode
   * the image, `document_unreadable` where the reader finds no zone on it (docs/document-reading.md, "Document reading").
   */
  decidedAs?: 'pipeline_error' | 'document_unreadable';
}

export const HOSTILE_CASES: HostileCase[] = [
  { name: '350×114,000 blank PNG as back', field: 'back', make: () => blankStrip(350, 114_000) },
  { name: '350×114,000 blank PNG as file', field: 'file', make: () => blankStrip(350, 114_000) },
  { name: '1×40,000,000 PNG', field: 'file', make: () => blankStrip(1, 40_000_000) },
  // Decoded whole, noise shows the band finder rows of character-sized marks spaced like a zone,
  // with marks between them too: no zone, no OCR pass (band.ts, MAX_MARKS_BETWEEN_ROWS).
  { name: '6,000×6,600 noise PNG', field: 'file', make: () => noisePng(6_000, 6_600), decidedAs: 'document_unreadable' },
  {
    name: 'truncated JPEG (1,600×1,200, half its bytes)',
    field: 'file',
    make: () => truncatedJpeg(1_600, 1_200),
    decidedAs: 'pipeline_error',
  },
  {
    name: 'JPEG whose header claims 6,000×6,000 (640×480 inside)',
    field: 'file',
    make: () => jpegClaiming(640, 480, 6_000, 6_000),
    decidedAs: 'pipeline_error',
  },
];

export interface HostileOutcome {
  name: string;
  /** The document upload's status. */
  upload: number;
  detail?: string;
  /** Last frame stored → decision visible (only when the upload was taken). */
  decideMs?: number;
  status?: string;
  reason?: string | null;
  /** The server's peak RSS while this upload was sent and decided, in MiB (sampled every 50 ms). */
  peakRssMb?: number;
}

export interface HostileResult {
  cases: HostileOutcome[];
  /** An ordinary verification's decision time before the hostile ones, and one started 2 s after they were decided. */
  usualMs: number;
  afterMs: number;
  /** The process's RSS just before the first hostile upload, and its peak from then on, in MiB. */
  restingRssMb: number;
  peakRssMb: number;
  alive: boolean;
}

const MIB = 1024 * 1024;

let seed = 1;
/** An ordinary photo (noise, so that no two are alike): the reading finds no zone, the faces none. */
const ordinary = () => png(640, 480, { seed: 40_000 + seed++, noisyRows: 480 });

async function form(parts: { name: string; data: Buffer | string }[]): Promise<FormData> {
  const body = new FormData();
  for (const { name, data } of parts) {
    if (typeof data === 'string') body.append(name, data);
    else body.append(name, new Blob([new Uint8Array(data)], { type: 'application/octet-stream' }), 'image');
  }
  return body;
}

/** One verification through capture with `document` as its document parts; its decision time when taken. */
async function capture(
  base: string,
  backendKey: string,
  document: { name: string; data: Buffer }[],
): Promise<Omit<HostileOutcome, 'name'>> {
  const created = await fetch(`${base}/v1/verifications`, {
    method: 'POST',
    headers: { authorization: `Bearer ${backendKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ webhook_url: 'https://127.0.0.1:9/hooks' }),
  });
  if (created.status !== 201) throw new Error(`POST /v1/verifications answered ${created.status}: ${await created.text()}`);
  const v = (await created.json()) as { id: string; handoff_token: string };
  const device = { authorization: `Bearer ${v.handoff_token}` };
  const uploaded = await fetch(`${base}/v1/capture/document`, { method: 'POST', headers: device, body: await form(document) });
  const answer = (await uploaded.json()) as { detail?: string };
  if (uploaded.status !== 201) return { upload: uploaded.status, detail: answer.detail };
  const challenge = (await (await fetch(`${base}/v1/capture/challenge`, { method: 'POST', headers: device })).json()) as {
    steps: { step: number }[];
  };
  for (const { step } of challenge.steps) {
    const frame = await fetch(`${base}/v1/capture/selfie`, {
      method: 'POST',
      headers: device,
      body: await form([
        { name: 'step', data: String(step) },
        { name: 'file', data: ordinary() },
      ]),
    });
    if (frame.status !== 201) throw new Error(`frame ${step} answered ${frame.status}: ${await frame.text()}`);
  }
  const started = performance.now();
  for (;;) {
    const res = await fetch(`${base}/v1/verifications/${v.id}`, { headers: { authorization: `Bearer ${backendKey}` } });
    const body = (await res.json()) as { status: string; decision_reason: string | null };
    if (body.status !== 'processing')
      return { upload: 201, decideMs: performance.now() - started, status: body.status, reason: body.decision_reason };
    if (performance.now() - started > 4 * HOSTILE_DECIDE_LIMIT_MS) return { upload: 201, status: 'processing' };
    await sleep(100);
  }
}

const ordinaryCapture = (base: string, key: string) => capture(base, key, [{ name: 'file', data: ordinary() }]);

/**
 * Sends every hostile case through capture on the server at `base` (process `pid`), with an
 * ordinary verification before (warm-up, then the usual time) and one 2 s after the last.
 */
export async function measureHostileUploads(
  base: string,
  pid: number,
  backendKey: string,
  log: (m: string) => void,
): Promise<HostileResult> {
  // The first one waits for the engines and models to start.
  await ordinaryCapture(base, backendKey);
  const usualMs = (await ordinaryCapture(base, backendKey)).decideMs ?? Number.NaN;
  const restingRssMb = rssOf(pid) / MIB;
  log(`hostile uploads: ordinary verification decided in ${Math.round(usualMs)} ms; RSS at rest ${Math.round(restingRssMb)} MiB`);
  const rss = sampleRss(pid, 50);
  const cases: HostileOutcome[] = [];
  for (const c of HOSTILE_CASES) {
    const image = await c.make();
    const document =
      c.field === 'file'
        ? [{ name: 'file', data: image }]
        : [
            { name: 'file', data: ordinary() },
            { name: 'back', data: image },
          ];
    // Which upload makes the process's peak: each case's own, beside the run's.
    const caseRss = sampleRss(pid, 50);
    const outcome: HostileOutcome = { name: c.name, ...(await capture(base, backendKey, document)) };
    outcome.peakRssMb = caseRss.stop() / MIB;
    cases.push(outcome);
    log(
      `hostile uploads: ${c.name}: ${outcome.upload}${outcome.decideMs === undefined ? '' : `, ${outcome.status} ${outcome.reason ?? ''} in ${Math.round(outcome.decideMs)} ms`} (peak RSS ${Math.round(outcome.peakRssMb)} MiB, now ${Math.round(rssOf(pid) / MIB)} MiB)`,
    );
  }
  await sleep(2_000);
  const afterMs = (await ordinaryCapture(base, backendKey)).decideMs ?? Number.NaN;
  const peakRssMb = rss.stop() / MIB;
  const alive = (await fetch(`${base}/health`).catch(() => null))?.status === 200;
  log(`hostile uploads: ordinary verification after them decided in ${Math.round(afterMs)} ms; peak RSS ${Math.round(peakRssMb)} MB`);
  return { cases, usualMs, afterMs, restingRssMb, peakRssMb, alive };
}

/** The section of bench/results.md. */
export function hostileMarkdown(r: HostileResult | undefined): string {
  if (!r) return '';
  const lines = [
    '',
    '## Hostile uploads (FACE_CHECKS and DOCUMENT_READING on)',
    '',
    `Each refused at upload or decided within ${HOSTILE_DECIDE_LIMIT_MS / 1000} s; the process alive, its RSS at most ${HOSTILE_RSS_RISE_LIMIT_MB} MiB above its resting size; an ordinary verification 2 s later within its usual time + ${HOSTILE_AFTERMATH_SLACK_MS / 1000} s.`,
    '',
    '| Upload | Answer | Decision | Peak RSS |',
    '|---|---|---|---:|',
    ...r.cases.map(
      (c) =>
        `| ${c.name} | ${c.upload}${c.detail ? ` ${c.detail}` : ''} | ${c.decideMs === undefined ? '—' : `${c.status} ${c.reason ?? ''} in ${(c.decideMs / 1000).toFixed(1)} s`} | ${c.peakRssMb === undefined ? '—' : `${Math.round(c.peakRssMb)} MiB`} |`,
    ),
    '',
    `Ordinary verification: ${(r.usualMs / 1000).toFixed(1)} s before, ${(r.afterMs / 1000).toFixed(1)} s after; RSS at rest ${Math.round(r.restingRssMb)} MiB, peak ${Math.round(r.peakRssMb)} MiB (+${Math.round(r.peakRssMb - r.restingRssMb)}); process ${r.alive ? 'alive' : 'DEAD'}.`,
    '',
  ];
  return lines.join('\n');
}
