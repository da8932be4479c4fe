import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestContext } from './app.js';
import { addKey, createTenant } from './tenants.js';
import { png } from '../../scripts/fixtures/images.js';

export type Part = { name: string; value: string } | { name: string; filename: string; contentType?: string; data: Buffer };

/** A real multipart/form-data body, parts in the given order. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----idvtest${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const CHAR_VALUE = (c: string) => (c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);
export function checkDigit(s: string): string {
  const weights = [7, 3, 1];
  return String([...s].reduce((sum, c, i) => sum + CHAR_VALUE(c) * weights[i % 3]!, 0) % 10);
}

/** A TD3 (passport) MRZ with correct check digits unless `breakCheckDigit`. Dates YYMMDD. */
export function passportMrz(
  opts: { birth?: string; expiry?: string; nationality?: string; number?: string; breakCheckDigit?: boolean } = {},
): string {
  const number = (opts.number ?? 'X12345678').padEnd(9, '<').slice(0, 9);
  const nationality = opts.nationality ?? 'NLD';
  const birth = opts.birth ?? '900115';
  const expiry = opts.expiry ?? '310101';
  const personal = '<'.repeat(14);
  const line1 = `P<${nationality}DOE<<JANE<MARIA`.padEnd(44, '<');
  let numberCd = checkDigit(number);
  if (opts.breakCheckDigit) numberCd = String((Number(numberCd) + 1) % 10);
  const composite = checkDigit(
    `${number}${numberCd}${birth}${checkDigit(birth)}${expiry}${checkDigit(expiry)}${personal}${checkDigit(personal)}`,
  );
  const line2 = `${number}${numberCd}${nationality}${birth}${checkDigit(birth)}F${expiry}${checkDigit(expiry)}${personal}${checkDigit(personal)}${composite}`;
  return `${line1}\n${line2}`;
}

export interface IdentityTenant {
  profileId: string;
  backend: string;
  reviewer: string;
}

export async function identityTenant(ctx: TestContext): Promise<IdentityTenant> {
  const t = await createTenant(ctx, { service: 'identity', role: 'backend' });
  const reviewer = await addKey(ctx, t.profileId, { service: 'identity', role: 'reviewer' });
  return { profileId: t.profileId, backend: t.key, reviewer: reviewer.key };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Calls the identity API; the test fails on another status than `expect` (when given). */
export function api(ctx: TestContext) {
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | null, body?: object, status?: number) => {
    const res = await ctx.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(body ? { payload: body } : {}) });
    if (status !== undefined) expect(res.statusCode, res.body).toBe(status);
    return res;
  };
  return {
    call,
    async createVerification(key: string, body: object = { webhook_url: 'https://127.0.0.1:9/hooks', reference: 'order-42' }) {
      return (await call('POST', '/v1/verifications', key, body, 201)).json();
    },
    async upload(path: 'document' | 'selfie', token: string | null, parts: Part[]) {
      const form = multipart(parts);
      return ctx.app.inject({
        method: 'POST',
        url: `/v1/capture/${path}`,
        headers: { ...form.headers, ...(token ? bearer(token) : {}) },
        payload: form.payload,
      });
    },
    status: (token: string) => call('GET', '/v1/capture/status', token),
    challenge: (token: string) => call('POST', '/v1/capture/challenge', token),
  };
}

export const file = (data: Buffer, filename = 'image.bin'): Part => ({ name: 'file', filename, data });

/** Creates a verification and carries it through capture; returns its id, token and challenge. */
export async function captureAll(
  ctx: TestContext,
  key: string,
  opts: {
    document?: Buffer;
    mrz?: string | null;
    frames?: (step: number, pose: 'front' | 'left' | 'right' | null) => Buffer;
    /** Where the decision webhook goes (a test receiver); https://127.0.0.1:9/hooks, where nothing listens, by default. */
    webhookUrl?: string;
  } = {},
) {
  const a = api(ctx);
  const v = await a.createVerification(key, { webhook_url: opts.webhookUrl ?? 'https://127.0.0.1:9/hooks', reference: 'order-42' });
  const token = v.handoff_token as string;
  const docParts: Part[] = [file(opts.document ?? png(640, 480, { seed: randomBytes(4).readUInt32BE() }))];
  if (opts.mrz !== null) docParts.push({ name: 'mrz', value: opts.mrz ?? passportMrz() });
  const doc = await a.upload('document', token, docParts);
  expect(doc.statusCode, doc.body).toBe(201);
  const challenge = (await a.challenge(token)).json();
  const salt = randomBytes(4).readUInt32BE();
  for (const { step, pose } of challenge.steps) {
    const frame = opts.frames ? opts.frames(step, pose) : png(640, 480, { seed: salt + step + 1 });
    const res = await a.upload('selfie', token, [{ name: 'step', value: String(step) }, file(frame)]);
    expect(res.statusCode, res.body).toBe(201);
  }
  return { id: v.id as string, token, challenge, verification: v };
}

/**
 * Marks the verification's typed zone as read from the document image, as the pipeline does when
 * DOCUMENT_READING=on and the OCR read the same zone: for tests of what follows a read zone
 * (attestations) without running the OCR, which test/identity/document-reading.test.ts covers.
 */
export async function zoneReadFromImage(ctx: TestContext, id: string): Promise<void> {
  await ctx.app.db.execute(sql`update identity_verifications set mrz_source = 'image' where id = ${id} and mrz is not null`);
}

/** Drains the job queue and reads the verification. */
export async function settle(ctx: TestContext, key: string, id: string) {
  await ctx.app.jobs.drain();
  return (await api(ctx).call('GET', `/v1/verifications/${id}`, key, undefined, 200)).json();
}

/** A verification of `key` in manual_review: its document was already used by an earlier verification. */
export async function captureIntoManualReview(ctx: TestContext, key: string, seed: number, opts: { webhookUrl?: string } = {}) {
  const document = png(640, 480, { seed });
  const first = await captureAll(ctx, key, { document, ...opts });
  await settle(ctx, key, first.id);
  const second = await captureAll(ctx, key, { document, ...opts });
  expect((await settle(ctx, key, second.id)).status).toBe('manual_review');
  return second;
}

/** Limits high enough that a test file's own traffic never trips them (the rate-limit test sets its own). */
export const HIGH_LIMITS = {
  CAPTURE_RATE_LIMIT_PER_MINUTE: '100000',
  IDENTITY_RATE_LIMIT_PER_MINUTE: '100000',
  AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
};

/**
 * A device on a real socket: uploads with the handoff token as the bearer (201 expected) and
 * fetches the challenge, as the capture page does against a listening server.
 */
export function socketDevice(base: string, handoffToken: string) {
  const headers = { authorization: `Bearer ${handoffToken}` };
  return {
    async upload(path: 'document' | 'selfie', file: Buffer, fields: Record<string, string> = {}) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', new Blob([file], { type: 'image/png' }), 'frame.png');
      const res = await fetch(`${base}/v1/capture/${path}`, { method: 'POST', headers, body: form });
      expect(res.status, await res.clone().text()).toBe(201);
    },
    async challenge(): Promise<{ steps: { step: number }[] }> {
      return (await fetch(`${base}/v1/capture/challenge`, { method: 'POST', headers })).json() as Promise<{ steps: { step: number }[] }>;
    },
  };
}
