import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import {
  ENVELOPE_OVERHEAD,
  EnvelopeDamaged,
  HEADER_BYTES,
  isSealed,
  masterKeyIdOf,
  masterKeyOf,
  open,
  rewrapHeader,
  seal,
  sealingStream,
  UnknownMasterKey,
} from '../../src/at-rest/envelope.js';

const master = masterKeyOf(randomBytes(32));
const keys = new Map([[master.id, master]]);

/** The at-rest envelope (src/at-rest/envelope.ts), byte by byte. */
describe('the at-rest envelope', () => {
  it('opens to its data for its context only, and carries the master key id', () => {
    const data = randomBytes(1000);
    const envelope = seal(master, 'blob:identity/a/document', data);
    expect(envelope).toHaveLength(data.length + ENVELOPE_OVERHEAD);
    expect(envelope.subarray(0, 4)).toEqual(Buffer.from([0x45, 0x4e, 0x43, 1]));
    expect(masterKeyIdOf(envelope)).toBe(master.id);
    expect(envelope.includes(data.subarray(0, 32))).toBe(false);
    expect(open(keys, 'blob:identity/a/document', envelope).equals(data)).toBe(true);
    expect(() => open(keys, 'blob:identity/b/document', envelope)).toThrow(EnvelopeDamaged);
  });

  it('refuses a changed byte anywhere, and names a master key it was not given', () => {
    const envelope = seal(master, 'ctx', Buffer.from('secret'));
    for (const at of [5, 20, 60, 75, HEADER_BYTES + 2, envelope.length - 1]) {
      const changed = Buffer.from(envelope);
      changed[at]! ^= 1;
      expect(() => open(keys, 'ctx', changed), `byte ${at}`).toThrow(at < 12 ? UnknownMasterKey : EnvelopeDamaged);
    }
    expect(() => open(new Map(), 'ctx', envelope)).toThrow(UnknownMasterKey);
  });

  it('tells images from envelopes by the header', () => {
    expect(isSealed(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(200)]))).toBe(false);
    expect(isSealed(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(200)]))).toBe(false);
    expect(isSealed(seal(master, 'ctx', Buffer.alloc(0)))).toBe(true);
  });

  it('streams the same envelope format, empty streams included', async () => {
    const data = randomBytes(300_000);
    const streamed = await buffer(Readable.from([data.subarray(0, 7), data.subarray(7)]).pipe(sealingStream(master, 'ctx')));
    expect(open(keys, 'ctx', streamed).equals(data)).toBe(true);
    const empty = await buffer(Readable.from([]).pipe(sealingStream(master, 'ctx')));
    expect(open(keys, 'ctx', empty)).toHaveLength(0);
  });

  it('rewraps under another master key by its header alone, the data bytes unchanged', () => {
    const next = masterKeyOf(randomBytes(32));
    const envelope = seal(master, 'ctx', Buffer.from('the data'));
    const header = rewrapHeader(keys, next, envelope.subarray(0, HEADER_BYTES));
    expect(header).toHaveLength(HEADER_BYTES);
    const rewrapped = Buffer.concat([header, envelope.subarray(HEADER_BYTES)]);
    expect(masterKeyIdOf(rewrapped)).toBe(next.id);
    expect(rewrapped.subarray(HEADER_BYTES).equals(envelope.subarray(HEADER_BYTES))).toBe(true);
    expect(open(new Map([[next.id, next]]), 'ctx', rewrapped).toString()).toBe('the data');
    expect(() => open(keys, 'ctx', rewrapped)).toThrow(UnknownMasterKey);
  });
});
