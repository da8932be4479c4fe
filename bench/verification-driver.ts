// A partner's backend and a person's phone, as the benches drive them over HTTP: a verification
// created, its ID card (front and back) and every selfie frame but the last uploaded, so that
// whoever measures sends the last frames at once and times the decisions. The frames are the test
// fixtures' photos of one person; each card is generated anew (scripts/documents) with a new
// holder, photographed as a phone would, so the reused-document rule stays out of it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { documentAt, photoFor } from '../scripts/documents/fixture-set.js';
import { renderDocument, seeded } from '../scripts/documents/render.js';

type Pose = 'front' | 'left' | 'right';

export interface PreparedVerification {
  id: string;
  steps: number;
  /** Uploads the last frame: the verification then goes to the pipeline. */
  last(): Promise<void>;
}

const photo = (name: string) => readFileSync(join(import.meta.dirname, '..', 'test', 'fixtures', 'faces', `person-${name}.jpg`));

/** `base` is the identity API's address, `backendKey` a backend key of the profile; `seed` spreads the generated cards of different runs. */
export async function verificationDriver(base: string, backendKey: string, seed: number) {
  const backend = { authorization: `Bearer ${backendKey}` };
  const fronts = [photo('a-3'), photo('a-6'), photo('a-4')];
  const left = photo('a-2');
  const right = await sharp(left).flop().jpeg({ quality: 90 }).toBuffer();
  let drawn = 0;
  const document = async () => {
    const n = drawn++;
    const spec = {
      ...documentAt(n, seed),
      format: 'TD1' as const,
      portrait: join(import.meta.dirname, '..', 'test', 'fixtures', 'faces', 'person-a-1.jpg'),
    };
    const shot = photoFor('phone photo', seeded(seed * 100 + n));
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
  async function prepare(steps?: number): Promise<PreparedVerification> {
    for (;;) {
      const res = await fetch(`${base}/v1/verifications`, {
        method: 'POST',
        headers: { ...backend, 'content-type': 'application/json' },
        body: JSON.stringify({ webhook_url: 'https://127.0.0.1:9/hooks/identity', reference: 'bench' }),
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
        steps: challenge.steps.length,
        last: () => upload(v.handoff_token, 'selfie', images.at(-1)!, { step: String(lastStep.step) }),
      };
    }
  }

  /** Polls until the verification is decided (or parked in review); answers its status, reason and where its zone came from. */
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

  return { prepare, decided };
}
