// Face checks and document reading under `npm run bench` (the server runs with its defaults,
// FACE_CHECKS=on and DOCUMENT_READING=on): the decision time of one verification (an ID card's
// front and back + 5 frames), the single-event read p99 while 10 verifications are being decided
// against its idle p99, and the server's peak RSS with both models loaded. The frames are the
// test fixtures; the card is generated (scripts/documents) with one of them as its portrait.
import { performance } from 'node:perf_hooks';
import { drive, type Figure } from './load.js';
import { rssOf, sampleRss } from './processes.js';
import { ratioShown } from './report.js';
import type { Seeded } from './seed.js';
import { verificationDriver } from './verification-driver.js';

const FACES_DECIDE_TARGET_MS = 3000;
const FACES_P99_RATIO_TARGET = 1.5;

export interface FacesResult {
  /** Last frame's upload answered → decision visible, for one verification of a document and 5 frames. */
  decideMs?: number;
  decidedStatus?: string;
  idle?: Figure;
  loaded?: Figure;
  /** First upload of the 10 → the last of them decided. */
  tenDecidedMs?: number;
  peakRssMb?: number;
  idleRssMb?: number;
  reason?: string;
}

export async function measureFaces(
  base: string,
  pid: number,
  s: Seeded,
  durationS: number,
  connections: number,
  log: (m: string) => void,
): Promise<FacesResult> {
  const result: FacesResult = {};
  const { prepare, decided } = await verificationDriver(base, s.identityKey, 34);

  const sampler = sampleRss(pid);
  try {
    result.idleRssMb = rssOf(pid) / 1024 / 1024;
    // Warm-up: the first job also waits for the worker's models.
    log('faces: warm-up verification (waits for the models)…');
    const warm = await prepare();
    await warm.last();
    await decided(warm.id);

    log('faces: one verification, document + 5 frames…');
    const one = await prepare(5);
    await one.last();
    const t0 = performance.now();
    result.decidedStatus = await decided(one.id);
    result.decideMs = performance.now() - t0;

    const event = { url: `${base}/api/v1/events/${s.eventId}`, headers: { authorization: `Bearer ${s.ticketingKey}` } };
    log(`faces: idle single-event read, ${durationS} s…`);
    result.idle = await drive(event, durationS, connections);

    log('faces: preparing 10 verifications…');
    const ten = [];
    for (let i = 0; i < 10; i++) ten.push(await prepare());
    log(`faces: single-event read while 10 verifications are decided, ${durationS} s…`);
    const started = performance.now();
    await Promise.all(ten.map((v) => v.last()));
    const all = Promise.all(ten.map((v) => decided(v.id, 250))).then(() => performance.now() - started);
    result.loaded = await drive(event, durationS, connections);
    result.tenDecidedMs = await all;
  } catch (err) {
    result.reason = err instanceof Error ? err.message : String(err);
    log(`faces: ${result.reason}`);
  } finally {
    result.peakRssMb = sampler.stop() / 1024 / 1024;
  }
  return result;
}

const fmt = (n: number | undefined, digits = 0) =>
  n === undefined ? '–' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function facesVerdicts(r: FacesResult) {
  const ratio = r.idle && r.loaded && r.idle.p99Ms > 0 ? r.loaded.p99Ms / r.idle.p99Ms : undefined;
  return {
    decide: r.decideMs === undefined ? undefined : r.decideMs <= FACES_DECIDE_TARGET_MS,
    p99Ratio: ratio,
    p99: ratio === undefined ? undefined : ratio <= FACES_P99_RATIO_TARGET,
  };
}

export function facesMarkdown(r: FacesResult): string {
  const v = facesVerdicts(r);
  const mark = (pass: boolean | undefined) => (pass === undefined ? 'not measured' : pass ? 'met' : 'missed');
  const lines = [
    '',
    '## Face checks',
    '',
    '| measurement | figure | target | verdict |',
    '|---|---|---|---|',
    `| one verification (ID card front + back + 5 frames): last upload → decided (${r.decidedStatus ?? '–'}) | ${fmt(r.decideMs)} ms | ≤ ${FACES_DECIDE_TARGET_MS} ms | ${mark(v.decide)} |`,
    `| GET /api/v1/events/{id} p99, idle | ${fmt(r.idle?.p99Ms)} ms (${fmt(r.idle?.reqPerSec)} req/s) | | |`,
    `| GET /api/v1/events/{id} p99 while 10 verifications are decided | ${fmt(r.loaded?.p99Ms)} ms (${fmt(r.loaded?.reqPerSec)} req/s, ${r.loaded?.failures ?? '–'} failures) | ≤ ${FACES_P99_RATIO_TARGET} × idle${v.p99Ratio === undefined ? '' : ` (${ratioShown(v.p99Ratio, FACES_P99_RATIO_TARGET, true)})`} | ${mark(v.p99)} |`,
    `| 10 verifications: first of the last uploads → all decided | ${fmt(r.tenDecidedMs)} ms | | |`,
    `| server RSS (face and OCR models loaded): at the start of this section → peak | ${fmt(r.idleRssMb)} → ${fmt(r.peakRssMb)} MB | reported | |`,
  ];
  if (r.reason) lines.push('', `Face checks section failed: ${r.reason}`);
  return `${lines.join('\n')}\n`;
}
