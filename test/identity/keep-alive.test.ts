import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { api, file, HIGH_LIMITS, identityTenant, multipart, type Part } from '../helpers/identity.js';
import { noise, png } from '../../scripts/fixtures/images.js';

/**
 * Early refusals over a real socket: a keep-alive client must get each answer and then have its
 * next request answered promptly; inject() cannot show this (src/plugins/unread-bodies.ts).
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request through `agent`; rejects when no answer comes within `timeoutMs`. */
function call(
  agent: Agent,
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
  timeoutMs = 30_000,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const req = request(`${base}${path}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}

/** A raw client socket that can keep writing after the answer arrived, and reads answers as they come. */
class RawClient {
  private buffer = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  readonly errors: Error[] = [];
  ended = false;
  constructor(readonly socket: Socket) {
    socket.on('data', (c: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, c]);
      this.wake();
    });
    socket.on('end', () => {
      this.ended = true;
      this.wake();
    });
    socket.on('error', (err) => {
      this.errors.push(err);
      this.wake();
    });
  }

  static open(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      // Half-open: the server may finish its side while this client is still sending.
      const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Writes with backpressure, failing on a socket error. */
  async write(data: Buffer): Promise<void> {
    for (let i = 0; i < data.length; i += 256 * 1024) {
      if (this.errors.length) throw this.errors[0];
      const ok = this.socket.write(data.subarray(i, i + 256 * 1024));
      if (!ok)
        await new Promise<void>((resolve) => {
          this.socket.once('drain', resolve);
          this.socket.once('close', resolve);
        });
    }
    if (this.errors.length) throw this.errors[0];
  }

  /** The next complete response (Content-Length framed), or an error after `timeoutMs`. */
  async answer(timeoutMs: number): Promise<Answer> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const lines = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines.slice(1)) {
          const i = line.indexOf(':');
          headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (this.buffer.length >= end + 4 + length) {
          const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
          this.buffer = this.buffer.subarray(end + 4 + length);
          return { status: Number(lines[0]!.split(' ')[1]), headers, body };
        }
      }
      if (this.errors.length) throw this.errors[0];
      if (this.ended) throw new Error('the server closed the connection before a complete answer');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no complete answer within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
}

function head(method: string, path: string, headers: Record<string, string>, length: number): Buffer {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Content-Length: ${length}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const BIG = 16 * 1024 * 1024;

describe('early refusals on keep-alive connections', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });
  let base: string;
  let port: number;
  /** A verification still at the document stage. */
  let atDocument: string;
  /** A verification in the selfie stage whose step 0 already has its frame. */
  let atSelfie: string;

  beforeAll(async () => {
    const a = api(ctx);
    atDocument = (await a.createVerification(tenant.backend)).handoff_token;
    atSelfie = (await a.createVerification(tenant.backend)).handoff_token;
    expect((await a.upload('document', atSelfie, [file(png(640, 480, { seed: 7 }))])).statusCode).toBe(201);
    await a.challenge(atSelfie);
    expect((await a.upload('selfie', atSelfie, [{ name: 'step', value: '0' }, file(png(640, 480, { seed: 8 }))])).statusCode).toBe(201);
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(base).port);
  });

  const bigImage = () => Buffer.concat([png(640, 480, { seed: 3 }), Buffer.alloc(BIG, 0x41)]);
  // Not an image: the inspector refuses it from its first bytes, long before the end of the part.
  const notAnImage = () => noise(5, 400 * 1024);

  type Case = { name: string; path: string; token: () => string; parts: () => Part[]; status: number };
  const cases: Case[] = [
    {
      name: '401 (bad token, with a body)',
      path: '/v1/capture/document',
      token: () => 'not-a-token',
      parts: () => [file(png(640, 480, { noisyRows: 200 }))],
      status: 401,
    },
    {
      name: '401 (bad token, with a body)',
      path: '/v1/capture/selfie',
      token: () => 'not-a-token',
      parts: () => [{ name: 'step', value: '1' }, file(png(640, 480, { noisyRows: 200 }))],
      status: 401,
    },
    {
      name: '409 (past the document stage)',
      path: '/v1/capture/document',
      token: () => atSelfie,
      parts: () => [file(png(640, 480, { noisyRows: 200 }))],
      status: 409,
    },
    {
      name: '409 (step already has its frame)',
      path: '/v1/capture/selfie',
      token: () => atSelfie,
      parts: () => [{ name: 'step', value: '0' }, file(png(640, 480, { noisyRows: 200 }))],
      status: 409,
    },
    { name: '413 (16 MB file)', path: '/v1/capture/document', token: () => atDocument, parts: () => [file(bigImage())], status: 413 },
    {
      name: '413 (16 MB file)',
      path: '/v1/capture/selfie',
      token: () => atSelfie,
      parts: () => [{ name: 'step', value: '1' }, file(bigImage())],
      status: 413,
    },
    { name: '415 (not an image)', path: '/v1/capture/document', token: () => atDocument, parts: () => [file(notAnImage())], status: 415 },
    {
      name: '415 (not an image)',
      path: '/v1/capture/selfie',
      token: () => atSelfie,
      parts: () => [{ name: 'step', value: '1' }, file(notAnImage())],
      status: 415,
    },
    {
      name: '422 (file in another field)',
      path: '/v1/capture/document',
      token: () => atDocument,
      parts: () => [{ name: 'photo', filename: 'a.png', data: png(640, 480, { noisyRows: 200 }) }, file(png(640, 480))],
      status: 422,
    },
    {
      name: '422 (step out of range)',
      path: '/v1/capture/selfie',
      token: () => atSelfie,
      parts: () => [{ name: 'step', value: '99' }, file(png(640, 480, { noisyRows: 200 }))],
      status: 422,
    },
  ];

  for (const c of cases) {
    it(`${c.path} ${c.name}: the next request on the same client is answered within 1 s`, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const form = multipart(c.parts());
        const refused = await call(agent, base, 'POST', c.path, { ...form.headers, ...bearer(c.token()) }, form.payload);
        expect(refused.status, refused.body).toBe(c.status);
        expect(Object.keys(JSON.parse(refused.body))).toEqual(['detail']);
        const next = await call(
          agent,
          base,
          'GET',
          '/v1/capture/status',
          bearer(c.token() === 'not-a-token' ? atDocument : c.token()),
          undefined,
          1000,
        );
        expect(next.status, next.body).toBe(200);
        // And a second upload on the same client gets its own answer too.
        const again = multipart(c.parts());
        const second = await call(agent, base, 'POST', c.path, { ...again.headers, ...bearer(c.token()) }, again.payload, 10_000);
        expect(second.status).toBe(c.status);
      } finally {
        agent.destroy();
      }
    });
  }

  it('a 413 for a JSON body over 1 MB reaches a keep-alive client, and its next request is answered within 1 s', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const body = Buffer.from(JSON.stringify({ webhook_url: 'https://example.com/hook', reference: 'x'.repeat(2 * 1024 * 1024) }));
      const refused = await call(
        agent,
        base,
        'POST',
        '/v1/verifications',
        { 'content-type': 'application/json', ...bearer(tenant.backend) },
        body,
      );
      expect(refused.status).toBe(413);
      expect(Object.keys(JSON.parse(refused.body))).toEqual(['detail']);
      const next = await call(agent, base, 'GET', '/v1/capture/status', bearer(atDocument), undefined, 1000);
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('a client still sending reads the refusal, finishes its body without EPIPE, and (small rest) reuses the connection', async () => {
    // 409 after the step field: the file part is mostly unsent when the answer comes.
    const form = multipart([{ name: 'step', value: '0' }, file(png(640, 480, { noisyRows: 480 }))]);
    const client = await RawClient.open(port);
    try {
      await client.write(head('POST', '/v1/capture/selfie', { ...form.headers, ...bearer(atSelfie) }, form.payload.length));
      await client.write(form.payload.subarray(0, 16 * 1024));
      const refused = await client.answer(5000);
      expect(refused.status).toBe(409);
      expect(Object.keys(JSON.parse(refused.body))).toEqual(['detail']);
      await client.write(form.payload.subarray(16 * 1024));
      await client.write(Buffer.from(`GET /v1/capture/status HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${atSelfie}\r\n\r\n`));
      const next = await client.answer(1000);
      expect(next.status).toBe(200);
      expect(client.errors).toEqual([]);
    } finally {
      client.socket.destroy();
    }
  });

  for (const c of [
    {
      name: '413 on an upload (16 MB)',
      path: '/v1/capture/document',
      headers: () => bearer(atDocument),
      parts: () => [file(bigImage())] as Part[],
      firstBytes: 15 * 1024 * 1024 + 64 * 1024,
    },
    {
      name: '413 on a JSON route (2 MB)',
      path: '/v1/verifications',
      json: true,
      headers: () => bearer(tenant.backend),
      parts: () => [],
      firstBytes: 64 * 1024,
    },
  ]) {
    it(`${c.name}: a client still sending reads the refusal, then finishes its body without EPIPE or reset`, async () => {
      let payload: Buffer;
      let headers: Record<string, string>;
      if (c.json) {
        payload = Buffer.from(JSON.stringify({ webhook_url: 'https://example.com/hook', reference: 'x'.repeat(2 * 1024 * 1024) }));
        headers = { 'content-type': 'application/json', ...c.headers() };
      } else {
        const form = multipart(c.parts());
        payload = form.payload;
        headers = { ...form.headers, ...c.headers() };
      }
      const client = await RawClient.open(port);
      try {
        await client.write(head('POST', c.path, headers, payload.length));
        await client.write(payload.subarray(0, c.firstBytes));
        const refused = await client.answer(10_000);
        expect(refused.status).toBe(413);
        expect(refused.headers.connection).toBe('close');
        expect(Object.keys(JSON.parse(refused.body))).toEqual(['detail']);
        // The rest still goes out: the server reads it (and drops it) before closing.
        await client.write(payload.subarray(c.firstBytes));
        await new Promise<void>((resolve) => client.socket.end(resolve));
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(client.errors).toEqual([]);
      } finally {
        client.socket.destroy();
      }
    });
  }
});
