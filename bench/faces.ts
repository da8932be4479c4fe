// Face checks and document reading under `npm run bench` (the server runs with its defaults,
// FACE_CHECKS=on and DOCUMENT_READING=on): the decision time of one verification (an ID card's
// front and back + 5 frames), the single-event read p99 while 10 verifications are being decided
// against its idle p99, and the server's peak RSS with both models loaded. The frames are the
// test fixtures; the card is generated (scripts/documents) with one of them as its portrait.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { documentAt, photoFor } from '../scripts/documents/fixture-set.js';
import { renderDocument, seeded } from '../scripts/documents/render.js';
import { drive, type Figure } from './load.js';
import { rssOf, sampleRss } from './processes.js';
import { ratioShown } from './report.js';
import type { Seeded } from './seed.js';

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

const photo = (name: string) => readFileSync(join(import.meta.dirname, '..', 'test', 'fixtures', 'faces', `person-${name}.jpg`));

type Pose = 'front' | 'left' | 'right';
interface Pending {
  id: string;
  token: string;
  frames: { step: number; pose: Pose }[];
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
  const backend = { authorization: `Bearer ${s.identityKey}` };
  const fronts = [photo('a-3'), photo('a-6'), photo('a-4')];
  const left = photo('a-2');
  const right = await sharp(left).flop().jpeg({ quality: 90 }).toBuffer();
  let drawn = 0;
  // A new ID card each time (another holder, photographed anew), so the reused-document rule stays
  // out of it: the front with person a's portrait, the back with the zone, as a phone photographs them.
  const document = async () => {
    const n = drawn++;
    const spec = {
      ...documentAt(n, 34),
      format: 'TD1' as const,
      portrait: join(import.meta.dirname, '..', 'test', 'fixtures', 'faces', 'person-a-1.jpg'),
    };
    const shot = photoFor('phone photo', seeded(3400 + n));
    return { file: await renderDocument(spec, 'front', shot, n), back: await renderDocument(spec, 'back', shot, n + 1) };
  };

  const upload = async (token: string, path: 'document' | 'selfie', image: Buffer, fields: Record<string, string> = {}, back?: Buffer) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([image], { type: 'image/jpeg' }), 'image.jpg');
    if (back) form.append('back', new Blob([back], { type: 'image/jpeg' }), 'back.jpg');
    const res = await fetch(`${base}/v1/capture/${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    if (res.status !== 201) throw new Error(`POST /v1/capture/${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  };
  const frameFor = (pose: Pose, frontIndex: number) => (pose === 'left' ? left : pose === 'right' ? right : fronts[frontIndex]!);

  /** A verification with its document and every frame but the last uploaded; `steps` asks for a challenge of that length. */
  async function prepare(steps?: number): Promise<Pending & { last: () => Promise<void> }> {
    for (;;) {
      const res = await fetch(`${base}/v1/verifications`, {
        method: 'POST',
        headers: { ...backend, 'content-type': 'application/json' },
        body: JSON.stringify({ webhook_url: 'https://127.0.0.1:9/hooks/identity', reference: 'bench-faces' }),
      });
      if (res.status !== 201) throw new Error(`POST /v1/verifications answered ${res.status}`);
      const v = (await res.json()) as { id: string; handoff_token: string };
      const card = await document();
      await upload(v.handoff_token, 'document', card.file, {}, card.back);
      const c = await fetch(`${base}/v1/capture/challenge`, { method: 'POST', headers: { authorization: `Bearer ${v.handoff_token}` } });
      const challenge = (await c.json()) as { steps: { step: number; pose: Pose }[] };
      // The challenge's length is random (3–5): draw again until it has the length asked for.
      if (steps !== undefined && challenge.steps.length !== steps) continue;
      let front = 0;
      const images = challenge.steps.map((st) => frameFor(st.pose, st.pose === 'front' ? front++ : 0));
      for (let i = 0; i < challenge.steps.length - 1; i++)
        await upload(v.handoff_token, 'selfie', images[i]!, { step: String(challenge.steps[i]!.step) });
      const lastStep = challenge.steps.at(-1)!;
      return {
        id: v.id,
        token: v.handoff_token,
        frames: challenge.steps,
        last: () => upload(v.handoff_token, 'selfie', images.at(-1)!, { step: String(lastStep.step) }),
      };
    }
  }

  // `everyMs` is how often it asks: 20 ms when one decision is timed; 250 ms for the ten decided
  // under load, whose own polling (500 requests a second at 20 ms) would otherwise be load of its
  // own on the API being measured.
  async function decided(id: string, everyMs = 20, timeoutMs = 180_000): Promise<string> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const res = await fetch(`${base}/v1/verifications/${id}`, { headers: backend });
      const v = (await res.json()) as { status: string; decision_reason: string | null; document?: { mrz_source?: string } | null };
      if (v.status !== 'processing' && v.status !== 'awaiting_capture')
        return `${v.status}${v.decision_reason ? ` ${v.decision_reason}` : ''}, zone ${v.document?.mrz_source ?? 'not read'}`;
      await sleep(everyMs);
    }
    throw new Error(`verification ${id} not decided within ${timeoutMs} ms`);
  }

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
