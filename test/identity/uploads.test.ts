import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { imageSize } from 'image-size';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { metadataStripper } from '../../src/identity/uploads/strip-metadata.js';
import { useTestApp } from '../helpers/suite.js';
import { api, file, HIGH_LIMITS, identityTenant, multipart } from '../helpers/identity.js';
import { exifWithGps, jpeg, png, pngChunk, pngClaiming, webp } from '../../scripts/fixtures/images.js';
import { blankStrip } from '../../scripts/fixtures/hostile-images.js';

function blobFiles(dataDir: string): string[] {
  const root = join(dataDir, 'blobs');
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: string[] = [];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(root);
  return out;
}

/** One HTTP request on its own connection (closed afterwards, so the app can close promptly). */
function httpCall(url: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, connection: 'close' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    // The server may answer 413 and close before the whole body is written.
    req.on('error', reject);
    req.end(body);
  });
}

/** Feeds `data` to a stripper in `size`-byte chunks. */
function stripInChunks(type: 'jpeg' | 'png' | 'webp', data: Buffer, size: number): Buffer {
  const s = metadataStripper(type);
  const out: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) out.push(...s.push(data.subarray(i, i + size)));
  return Buffer.concat(out);
}

describe('metadata stripping (streaming, any chunking)', () => {
  for (const size of [1, 7, 4096]) {
    it(`removes EXIF/GPS from JPEG, PNG and WebP fed in ${size}-byte chunks`, () => {
      const j = jpeg(640, 480, { exif: true });
      const strippedJ = stripInChunks('jpeg', j, size);
      expect(j.includes('GPSMARKER')).toBe(true);
      expect(strippedJ.includes('GPSMARKER')).toBe(false);
      expect(strippedJ.includes('Exif')).toBe(false);
      expect(strippedJ).toEqual(stripInChunks('jpeg', jpeg(640, 480), 4096));
      expect(imageSize(strippedJ)).toMatchObject({ width: 640, height: 480 });

      const p = png(400, 300, { text: 'GPSMARKER taken at home', exif: Buffer.from('GPSMARKER') });
      const strippedP = stripInChunks('png', p, size);
      expect(strippedP.includes('GPSMARKER')).toBe(false);
      expect(strippedP).toEqual(png(400, 300));

      const w = webp(500, 400, { exif: true, xmp: '<x:xmpmeta>GPSMARKER</x:xmpmeta>' });
      const strippedW = stripInChunks('webp', w, size);
      expect(strippedW.length).toBe(w.length);
      expect(strippedW.includes('GPSMARKER')).toBe(false);
      expect(strippedW.includes('EXIF')).toBe(false);
      expect(strippedW[20]! & 0x0c).toBe(0);
      expect(imageSize(strippedW)).toMatchObject({ width: 500, height: 400 });
    });
  }
});

describe('JPEG data after the end-of-image marker', () => {
  for (const size of [1, 7, 4096]) {
    it(`is cut away: a second JPEG with EXIF/GPS appended after EOI does not survive (${size}-byte chunks)`, () => {
      const first = jpeg(640, 480, { seed: 11 });
      const trailer = jpeg(320, 240, { exif: true, seed: 12 });
      const stripped = stripInChunks('jpeg', Buffer.concat([first, trailer]), size);
      expect(stripped).toEqual(first);
      expect(stripped.includes('GPSMARKER')).toBe(false);
      // A motion-photo style trailer of arbitrary bytes goes too.
      const video = Buffer.concat([Buffer.from('ftypmp42', 'latin1'), Buffer.alloc(3000, 0x42)]);
      expect(stripInChunks('jpeg', Buffer.concat([first, video]), size)).toEqual(first);
    });
  }

  it('keeps stuffed 0xFF00 and restart markers inside the scan, ending only at a real EOI', () => {
    const image = jpeg(64, 64, { seed: 3 });
    const eoi = image.length - 2;
    const withMarkers = Buffer.concat([
      image.subarray(0, eoi - 10),
      Buffer.from([0xff, 0x00, 0xff, 0xd0, 0xff, 0xff, 0x00]),
      image.subarray(eoi - 10),
    ]);
    expect(stripInChunks('jpeg', Buffer.concat([withMarkers, Buffer.from('TRAILER')]), 5)).toEqual(withMarkers);
  });
});

/** A JPEG segment: marker, length, data. */
function jpegSegment(marker: number, data: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/**
 * A progressive JPEG (SOF2) of two scans with `between` after the first one, where a decoder
 * meets tables and the next scan; and the same file as it should be stored, without `between`.
 */
function progressiveJpeg(between: Buffer): { crafted: Buffer; clean: Buffer } {
  const baseline = jpeg(640, 480, { seed: 21 });
  const sof = baseline.indexOf(Buffer.from([0xff, 0xc0]));
  const firstScan = Buffer.from(baseline.subarray(0, baseline.length - 2)); // without EOI
  firstScan[sof + 1] = 0xc2;
  const tables = jpegSegment(0xc4, Buffer.concat([Buffer.from([0x10]), Buffer.alloc(16, 0)]));
  const sos = jpegSegment(0xda, Buffer.from([1, 1, 0, 1, 63, 0x10]));
  const secondScan = Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd1, 0x56, 0xff, 0xff, 0x00, 0x78]);
  const eoi = Buffer.from([0xff, 0xd9]);
  return {
    crafted: Buffer.concat([firstScan, between, tables, sos, secondScan, eoi]),
    clean: Buffer.concat([firstScan, tables, sos, secondScan, eoi]),
  };
}

describe('data hidden past the image or between its scans', () => {
  const hidden = Buffer.concat([Buffer.from('HIDDENDATA '), exifWithGps()]);
  for (const size of [1, 7, 4096]) {
    it(`is removed from PNG after IEND, WebP beyond its RIFF size and progressive JPEG after its first scan (${size}-byte chunks)`, () => {
      const p = png(400, 300, { seed: 5 });
      expect(stripInChunks('png', Buffer.concat([p, hidden]), size)).toEqual(p);
      // A whole chunk after IEND (a second image's text, say) goes too.
      expect(stripInChunks('png', Buffer.concat([p, pngChunk('tEXt', hidden), pngChunk('IDAT', hidden)]), size)).toEqual(p);

      const w = webp(500, 400, { seed: 6 });
      expect(stripInChunks('webp', Buffer.concat([w, hidden]), size)).toEqual(w);
      // Trailing bytes shaped like a chunk, beyond the size the RIFF header gives, are not walked into.
      const strayChunk = Buffer.concat([Buffer.from('EXIF', 'latin1'), Buffer.from([hidden.length, 0, 0, 0]), hidden]);
      expect(stripInChunks('webp', Buffer.concat([w, strayChunk]), size)).toEqual(w);

      const app1 = jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exifWithGps()]));
      const app13 = jpegSegment(0xed, Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), hidden]));
      const app2 = jpegSegment(0xe2, hidden);
      const comment = jpegSegment(0xfe, hidden);
      const { crafted, clean } = progressiveJpeg(Buffer.concat([app1, app2, app13, comment]));
      const stripped = stripInChunks('jpeg', crafted, size);
      expect(stripped.includes('GPSMARKER')).toBe(false);
      expect(stripped.includes('HIDDENDATA')).toBe(false);
      expect(stripped).toEqual(clean);
      expect(imageSize(stripped)).toMatchObject({ width: 640, height: 480 });
    });
  }

  it('keeps the tables and scans of a progressive JPEG, and its APP0 and APP14 before the first scan', () => {
    const { clean } = progressiveJpeg(Buffer.alloc(0));
    expect(stripInChunks('jpeg', clean, 3)).toEqual(clean);
    const adobe = jpegSegment(0xee, Buffer.from('Adobe\0\x64\0\0\0\0\x01', 'latin1'));
    const withAdobe = Buffer.concat([clean.subarray(0, 2), adobe, clean.subarray(2)]);
    expect(stripInChunks('jpeg', withAdobe, 3)).toEqual(withAdobe);
  });
});

describe('capture uploads: types, sizes, streaming, stored without metadata', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });

  const fresh = async () => (await api(ctx).createVerification(tenant.backend)) as { id: string; handoff_token: string };
  const doc = async (id: string) =>
    rowsOf<{ document_blob: string | null; document_sha256: string | null; document_width: number; document_height: number }>(
      await ctx.app.db.execute(
        sql`select document_blob, document_sha256, document_width, document_height from identity_verifications where id = ${id}`,
      ),
    )[0]!;

  it('accepts JPEG, PNG and WebP by their bytes, whatever the declared type', async () => {
    for (const [image, w, h] of [
      [jpeg(1024, 768), 1024, 768],
      [png(640, 480), 640, 480],
      [webp(800, 600), 800, 600],
    ] as const) {
      const v = await fresh();
      const res = await api(ctx).upload('document', v.handoff_token, [
        { name: 'file', filename: 'x.txt', contentType: 'text/plain', data: image },
      ]);
      expect(res.statusCode, res.body).toBe(201);
      const row = await doc(v.id);
      expect([row.document_width, row.document_height]).toEqual([w, h]);
      expect(row.document_sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  // What is stored is read through the store: on disk the image is encrypted (docs/operations.md, "Encryption at rest").
  it('stores a JPEG with a GPS EXIF block without it, keyed by the SHA-256 of what is stored', async () => {
    const v = await fresh();
    const original = jpeg(1024, 768, { exif: true, seed: 55 });
    expect(original.includes('GPSMARKER')).toBe(true);
    const res = await api(ctx).upload('document', v.handoff_token, [file(original, 'photo.jpg')]);
    expect(res.statusCode, res.body).toBe(201);
    const row = await doc(v.id);
    const stored = await ctx.app.blobs.get(row.document_blob!);
    expect(stored.includes('GPSMARKER')).toBe(false);
    expect(stored.includes('Exif')).toBe(false);
    expect(stored.length).toBeLessThan(original.length);
    expect(imageSize(stored)).toMatchObject({ width: 1024, height: 768 });
    expect(row.document_sha256).toBe(createHash('sha256').update(stored).digest('hex'));
  });

  it('stores a JPEG without what follows its end-of-image marker', async () => {
    const v = await fresh();
    const first = jpeg(1024, 768, { seed: 56 });
    const res = await api(ctx).upload('document', v.handoff_token, [
      file(Buffer.concat([first, jpeg(640, 480, { exif: true })]), 'motion.jpg'),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const stored = await ctx.app.blobs.get((await doc(v.id)).document_blob!);
    expect(stored).toEqual(first);
  });

  it('stores a PNG, a WebP and a progressive JPEG without what they hide past their end or between scans', async () => {
    const hidden = Buffer.concat([Buffer.from('HIDDENDATA '), exifWithGps()]);
    const p = png(800, 600, { seed: 57 });
    const w = webp(800, 600, { seed: 58 });
    const j = progressiveJpeg(jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), hidden])));
    for (const [name, upload, expected] of [
      ['after-iend.png', Buffer.concat([p, hidden]), p],
      ['beyond-riff.webp', Buffer.concat([w, hidden]), w],
      ['progressive.jpg', j.crafted, j.clean],
    ] as const) {
      const v = await fresh();
      const res = await api(ctx).upload('document', v.handoff_token, [file(upload, name)]);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
      const stored = await ctx.app.blobs.get((await doc(v.id)).document_blob!);
      expect(stored, name).toEqual(expected);
      expect(stored.includes('HIDDENDATA'), name).toBe(false);
    }
  });

  it('refuses an image over 40 megapixels with 422 {detail} before it is stored (decode bomb)', async () => {
    const before = blobFiles(ctx.env.DATA_DIR!).length;
    // Headers that claim 16383×16383 (268 MP) in a few kilobytes.
    for (const bomb of [pngClaiming(16383, 16383), jpeg(16383, 16383), webp(16383, 16383)]) {
      const v = await fresh();
      const res = await api(ctx).upload('document', v.handoff_token, [file(bomb, 'bomb')]);
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.keys(res.json())).toEqual(['detail']);
      expect(res.json().detail).toMatch(/40 megapixels/);
      expect((await api(ctx).status(v.handoff_token)).json().next_step).toEqual({ type: 'document' });
    }
    // 40 MP exactly is still taken.
    const v = await fresh();
    expect((await api(ctx).upload('document', v.handoff_token, [file(jpeg(8000, 5000), 'big.jpg')])).statusCode).toBe(201);
    expect(blobFiles(ctx.env.DATA_DIR!).length).toBe(before + 1);
  });

  it('refuses an image whose longer side is over 12,000 px or over 4 times its shorter side, as file, back and frame, before it is stored', async () => {
    const before = blobFiles(ctx.env.DATA_DIR!).length;
    const refused: [Buffer, RegExp][] = [
      // Under 40 megapixels and a few hundred kilobytes: the strip that ended the process when the reader enlarged it.
      [blankStrip(350, 114_000), /350×114000 pixels: its longer side may be at most 12000 pixels/],
      [pngClaiming(12_001, 3_000), /12001×3000 pixels: its longer side may be at most 12000 pixels/],
      [jpeg(4_001, 1_000), /4001×1000 pixels: its longer side may be at most 4 times its shorter side/],
      [webp(400, 1_601), /400×1601 pixels: its longer side may be at most 4 times its shorter side/],
    ];
    for (const [image, detail] of refused) {
      for (const field of ['file', 'back'] as const) {
        const v = await fresh();
        const parts =
          field === 'file' ? [file(image, 'long.png')] : [file(png(640, 480, { seed: 71 })), { ...file(image, 'long.png'), name: 'back' }];
        const res = await api(ctx).upload('document', v.handoff_token, parts);
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json()).toEqual({ detail: expect.stringMatching(detail) });
        expect((await api(ctx).status(v.handoff_token)).json().next_step).toEqual({ type: 'document' });
      }
    }
    const v = await fresh();
    expect((await api(ctx).upload('document', v.handoff_token, [file(png(640, 480, { seed: 72 }))])).statusCode).toBe(201);
    await api(ctx).challenge(v.handoff_token);
    const frame = await api(ctx).upload('selfie', v.handoff_token, [{ name: 'step', value: '0' }, file(blankStrip(350, 114_000))]);
    expect(frame.statusCode, frame.body).toBe(422);
    expect(frame.json().detail).toMatch(/longer side may be at most 12000 pixels/);
    expect((await api(ctx).status(v.handoff_token)).json().next_step).toMatchObject({ type: 'selfie', step: 0 });
    // Only the accepted document was stored; the sides and ratios at the bounds are taken.
    expect(blobFiles(ctx.env.DATA_DIR!).length).toBe(before + 1);
    for (const [w, h] of [
      [12_000, 3_000],
      [1_280, 320],
      [320, 1_280],
    ]) {
      const ok = await fresh();
      const res = await api(ctx).upload('document', ok.handoff_token, [file(jpeg(w!, h!), 'edge.jpg')]);
      expect(res.statusCode, `${w}×${h}: ${res.body}`).toBe(201);
    }
  });

  it('refuses an image under 320×240 at upload with 422 {detail, code: "image_too_small"}, document and frame alike', async () => {
    const before = blobFiles(ctx.env.DATA_DIR!).length;
    for (const [w, h] of [
      [319, 480],
      [640, 239],
      [240, 320],
    ]) {
      const v = await fresh();
      const res = await api(ctx).upload('document', v.handoff_token, [file(png(w!, h!, { noisyRows: h }), 'small.png')]);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({
        detail: `The image is ${w}×${h} pixels: at least 320×240 is needed; take the photo again closer or at a higher resolution`,
        code: 'image_too_small',
      });
    }
    const v = await fresh();
    expect((await api(ctx).upload('document', v.handoff_token, [file(png(320, 240, { noisyRows: 240 }))])).statusCode).toBe(201);
    await api(ctx).challenge(v.handoff_token);
    const frame = await api(ctx).upload('selfie', v.handoff_token, [{ name: 'step', value: '0' }, file(png(300, 300, { noisyRows: 300 }))]);
    expect(frame.statusCode).toBe(422);
    expect(frame.json()).toMatchObject({ code: 'image_too_small' });
    expect(blobFiles(ctx.env.DATA_DIR!).length).toBe(before + 1);
    // Other refusals stay exactly {detail}.
    const other = await api(ctx).upload('selfie', v.handoff_token, [{ name: 'step', value: '0' }, file(jpeg(16383, 16383))]);
    expect(Object.keys(other.json())).toEqual(['detail']);
  });

  it('refuses other types with 415, a header that does not parse with 415, and keeps nothing', async () => {
    const before = blobFiles(ctx.env.DATA_DIR!).length;
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(4000, 1)]);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4000, 32)]);
    const brokenPng = Buffer.concat([png(640, 480).subarray(0, 8), Buffer.alloc(4000, 7)]);
    for (const data of [gif, pdf, brokenPng, Buffer.alloc(5000, 0)]) {
      const v = await fresh();
      const res = await api(ctx).upload('document', v.handoff_token, [
        { name: 'file', filename: 'a.jpg', contentType: 'image/jpeg', data },
      ]);
      expect(res.statusCode, res.body).toBe(415);
      expect(Object.keys(res.json())).toEqual(['detail']);
      expect((await api(ctx).status(v.handoff_token)).json().next_step).toEqual({ type: 'document' });
    }
    expect(blobFiles(ctx.env.DATA_DIR!).length).toBe(before);
  });

  it('refuses a file under 1 KB with 422 and a body that is not multipart with 415', async () => {
    const v = await fresh();
    const tiny = png(2, 2);
    expect(tiny.length).toBeLessThan(1024);
    const res = await api(ctx).upload('document', v.handoff_token, [file(tiny)]);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json())).toEqual(['detail']);
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/v1/capture/document',
      headers: { authorization: `Bearer ${v.handoff_token}` },
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(Object.keys(json.json())).toEqual(['detail']);
    const noFile = await api(ctx).upload('document', v.handoff_token, [{ name: 'mrz', value: 'x' }]);
    expect(noFile.statusCode).toBe(422);
    const twoFiles = await api(ctx).upload('document', v.handoff_token, [
      file(png(640, 480)),
      { name: 'other', filename: 'b.png', data: png(640, 480) },
    ]);
    expect(twoFiles.statusCode).toBe(422);
    const badMrz = await api(ctx).upload('document', v.handoff_token, [file(png(640, 480)), { name: 'mrz', value: 'not an mrz!' }]);
    expect(badMrz.statusCode).toBe(422);
    expect((await api(ctx).status(v.handoff_token)).json().stage).toBe('document');
  });

  it('refuses a file over 15 MB with 413 while streaming, without buffering it and without leaving a partial file', async () => {
    const v = await fresh();
    const before = blobFiles(ctx.env.DATA_DIR!).length;
    const head = png(640, 480);
    const total = 15 * 1024 * 1024 + 1;
    const form = multipart([{ name: 'file', filename: 'big.png', data: Buffer.alloc(0) }]);
    const boundaryEnd = form.payload.subarray(
      form.payload.length - (form.payload.length - form.payload.indexOf('\r\n--', form.payload.length - 60)),
    );
    const prefix = form.payload.subarray(0, form.payload.length - boundaryEnd.length);
    // Streamed in 64 KB chunks: a valid PNG head followed by filler, 15 MB + 1 byte in all.
    let sent = 0;
    const body = Readable.from(
      (function* () {
        yield prefix;
        yield head;
        sent = head.length;
        const chunk = Buffer.alloc(64 * 1024, 0x41);
        while (sent < total) {
          const n = Math.min(chunk.length, total - sent);
          sent += n;
          yield chunk.subarray(0, n);
        }
        yield boundaryEnd;
      })(),
    );
    const heapBefore = process.memoryUsage().heapUsed;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/capture/document',
      headers: { ...form.headers, authorization: `Bearer ${v.handoff_token}` },
      payload: body,
    });
    expect(res.statusCode).toBe(413);
    expect(Object.keys(res.json())).toEqual(['detail']);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(30 * 1024 * 1024);
    expect(blobFiles(ctx.env.DATA_DIR!).length).toBe(before);
    expect(blobFiles(ctx.env.DATA_DIR!).some((f) => f.endsWith('.partial'))).toBe(false);
    expect((await api(ctx).status(v.handoff_token)).json().stage).toBe('document');
    // Exactly 15 MB is accepted.
    const atLimit = Buffer.concat([head, Buffer.alloc(15 * 1024 * 1024 - head.length, 0x41)]);
    const ok = await api(ctx).upload('document', v.handoff_token, [file(atLimit)]);
    expect(ok.statusCode, ok.body).toBe(201);
  });
  it('answers 413 to a real HTTP client sending 16 MB, and the token keeps working', async () => {
    const v = await fresh();
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const form = multipart([file(Buffer.concat([png(640, 480), Buffer.alloc(16 * 1024 * 1024, 0x41)]), 'big.png')]);
    const res = await httpCall(
      `${address}/v1/capture/document`,
      'POST',
      { ...form.headers, authorization: `Bearer ${v.handoff_token}` },
      form.payload,
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ detail: expect.any(String) });
    const status = await httpCall(`${address}/v1/capture/status`, 'GET', { authorization: `Bearer ${v.handoff_token}` });
    expect(status.status).toBe(200);
    expect(JSON.parse(status.body).next_step).toEqual({ type: 'document' });
  });
  it('answers a malformed or truncated multipart body with 400 {detail} and keeps nothing', async () => {
    const v = await fresh();
    const before = blobFiles(ctx.env.DATA_DIR!).length;
    const form = multipart([file(png(640, 480, { noisyRows: 60 }))]);
    for (const [headers, payload] of [
      [{ 'content-type': 'multipart/form-data' }, form.payload],
      [form.headers, form.payload.subarray(0, form.payload.length - 300)],
      [form.headers, form.payload.subarray(0, 60)],
      [form.headers, Buffer.from('hello world')],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v1/capture/document',
        headers: { ...headers, authorization: `Bearer ${v.handoff_token}` },
        payload,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json())).toEqual(['detail']);
    }
    expect(blobFiles(ctx.env.DATA_DIR!).length).toBe(before);
  });

  it('answers 500 {detail} when the store fails, even on a file larger than the stream buffers', async () => {
    const v = await fresh();
    const put = ctx.app.blobs.put;
    ctx.app.blobs.put = async () => {
      throw new Error('disk full at /var/secret');
    };
    try {
      const res = await api(ctx).upload('document', v.handoff_token, [file(png(1200, 900, { noisyRows: 400 }))]);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: 'Internal server error' });
    } finally {
      ctx.app.blobs.put = put;
    }
  });
  it('refuses a bad or taken step sent before the file without storing the file', async () => {
    const a = api(ctx);
    const v = await fresh();
    expect((await a.upload('document', v.handoff_token, [file(png(640, 480, { seed: 8100 }))])).statusCode).toBe(201);
    await a.challenge(v.handoff_token);
    expect(
      (await a.upload('selfie', v.handoff_token, [{ name: 'step', value: '0' }, file(png(640, 480, { seed: 8101 }))])).statusCode,
    ).toBe(201);
    const before = blobFiles(ctx.env.DATA_DIR!).length;
    const big = png(1600, 1200, { seed: 8102, noisyRows: 600 });
    const taken = await a.upload('selfie', v.handoff_token, [{ name: 'step', value: '0' }, file(big)]);
    expect(taken.statusCode).toBe(409);
    const outside = await a.upload('selfie', v.handoff_token, [{ name: 'step', value: '9' }, file(big)]);
    expect(outside.statusCode).toBe(422);
    expect(blobFiles(ctx.env.DATA_DIR!).length).toBe(before);
    expect((await a.status(v.handoff_token)).json().uploaded_steps).toEqual([0]);
  });
});
