import { expect } from 'vitest';
import type { TestContext } from '../helpers/app.js';
import { api, file, settle, type Part } from '../helpers/identity.js';
import { CLEAN, renderDocument, type DocumentSpec, type Photo } from '../../scripts/documents/render.js';
import { mirrored, photo } from './face-images.js';

/**
 * Person A's frames for a challenge, by pose (test/identity/faces.test.ts): `left` is the person's
 * own left, so the unmirrored photo; `front` takes the next of three front photos. The documents
 * rendered with person A's portrait (`portraitPath('person-a-1')`) match them under FACE_CHECKS=on.
 */
export async function personAFrames(): Promise<(pose: string | null) => Buffer> {
  const set = { front: [photo('a-3'), photo('a-6'), photo('a-4')], left: photo('a-2'), right: await mirrored('a-2') };
  let next = 0;
  return (pose) => (pose === 'left' ? set.left : pose === 'right' ? set.right : set.front[next++ % set.front.length]!);
}

/**
 * A flat, sharp photo of a document on a table: as legible as a clean render, but the table's
 * colour and the document's place come from the seed, so each seed makes new bytes (a clean
 * render of one document is the same bytes every time, which the reused-image rule would catch).
 */
export const FLAT: Photo = { ...CLEAN, coverage: 0.95 };

/** One side of a document photographed flat (new bytes per seed), as an upload part named `name`. */
export async function documentPart(spec: DocumentSpec, side: 'front' | 'back', seed: number, name = 'file'): Promise<Part> {
  return { name, filename: `${side}.jpg`, data: await renderDocument(spec, side, FLAT, seed) };
}

/** A card's two sides as the document upload's parts: `file` the front, `back` the back. */
export async function cardParts(front: DocumentSpec, back: DocumentSpec, seed: number): Promise<Part[]> {
  return [await documentPart(front, 'front', seed), await documentPart(back, 'back', seed + 1, 'back')];
}

/** Carries a verification of `key` through capture with these document parts and person A's frames, and settles it. */
export async function captureDocument(ctx: TestContext, key: string, parts: Part[]) {
  const a = api(ctx);
  const frames = await personAFrames();
  const v = await a.createVerification(key);
  const doc = await a.upload('document', v.handoff_token, parts);
  expect(doc.statusCode, doc.body).toBe(201);
  for (const { step, pose } of (await a.challenge(v.handoff_token)).json().steps) {
    const res = await a.upload('selfie', v.handoff_token, [{ name: 'step', value: String(step) }, file(frames(pose), 'frame.jpg')]);
    expect(res.statusCode, res.body).toBe(201);
  }
  return settle(ctx, key, v.id);
}
