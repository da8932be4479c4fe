import { createHash, randomBytes } from 'node:crypto';
import * as ed from '@noble/ed25519';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StrictJsonError, parseStrictJson } from '../../src/governance/strict-json.js';
import { evaluateGates, POLICY_VERSION } from '../../src/governance/policy.js';
import { canonicalJson, GENESIS_HASH } from '../../src/lib/canonical-json.js';
import { isAcceptablePublicKey, recordHash, sealRecord, signingBytes, verifyRecordSignature } from '../../src/governance/seal.js';
import type { DecisionInputs, UnsignedRecord } from '../../src/governance/types.js';
import { keyIdOf, keyPairFromSeed } from '../../src/lib/ed25519.js';

ed.hashes.sha512 = (m: Uint8Array) => new Uint8Array(createHash('sha512').update(m).digest());

/** An independent RFC 8785 serializer: explicit UTF-16 key order, its own string escaping, ES number formatting. */
function referenceJcs(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('non-finite');
    return Object.is(value, -0) ? '0' : String(value);
  }
  if (typeof value === 'string') {
    let out = '"';
    for (const ch of value) {
      const c = ch.codePointAt(0)!;
      if (ch === '"') out += '\\"';
      else if (ch === '\\') out += '\\\\';
      else if (c === 0x08) out += '\\b';
      else if (c === 0x09) out += '\\t';
      else if (c === 0x0a) out += '\\n';
      else if (c === 0x0c) out += '\\f';
      else if (c === 0x0d) out += '\\r';
      else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, '0')}`;
      else out += ch;
    }
    return `${out}"`;
  }
  if (Array.isArray(value)) return `[${value.map(referenceJcs).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort((a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = a.charCodeAt(i) - b.charCodeAt(i);
      if (d !== 0) return d;
    }
    return a.length - b.length;
  });
  return `{${keys.map((k) => `${referenceJcs(k)}:${referenceJcs(obj[k])}`).join(',')}}`;
}

describe('RFC 8785 (JCS) canonical form', () => {
  it('canonicalizes the RFC 8785 §3.2.2 example exactly', () => {
    const input = String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`;
    const expected = String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;
    expect(canonicalJson(parseStrictJson(input))).toBe(expected);
    expect(referenceJcs(parseStrictJson(input))).toBe(expected);
  });

  it('sorts properties by UTF-16 code units (RFC 8785 §3.2.3)', () => {
    const input = String.raw`{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}`;
    const canonical = canonicalJson(parseStrictJson(input));
    expect(canonical).toBe(referenceJcs(parseStrictJson(input)));
    expect(canonical.startsWith('{"\\r":"Carriage Return","1":"One","\u0080":"Control"')).toBe(true);
    const order = [...canonical.matchAll(/"([^"]*)":"([^"]*)"/g)].map((m) => m[2]);
    expect(order).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
  });

  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('serializes IEEE 754 %s as %s (RFC 8785 Appendix B)', (hex, expected) => {
    const n = Buffer.from(hex, 'hex').readDoubleBE(0);
    expect(canonicalJson(n)).toBe(expected);
    expect(referenceJcs(n)).toBe(expected);
  });

  it('refuses NaN and Infinity (Appendix B: 7fffffffffffffff, 7ff0000000000000)', () => {
    expect(() => canonicalJson(Buffer.from('7fffffffffffffff', 'hex').readDoubleBE(0))).toThrow();
    expect(() => canonicalJson(Buffer.from('7ff0000000000000', 'hex').readDoubleBE(0))).toThrow();
  });

  it('agrees with the independent reference on random records', () => {
    for (let i = 0; i < 50; i++) {
      const value = {
        z: Math.random() * 10 ** ((i % 30) - 10),
        a: [i, -i / 7, `s\u0001${i}\u2028é"😀`],
        m: { ['\u00e9' + i]: null, ['e' + i]: true, b: { y: false, x: [] } },
      };
      expect(canonicalJson(value)).toBe(referenceJcs(value));
    }
  });
});

describe('strict JSON reading before canonicalization', () => {
  it.each([
    ['duplicate key', '{"a":1,"a":2}'],
    ['nested duplicate key', '{"record":{"inputs":{"x":1,"y":2,"x":3}}}'],
    ['duplicate key spelled with an escape', '{"ab":1,"\\u0061b":2}'],
    ['lone high surrogate', '{"a":"\\ud800"}'],
    ['lone low surrogate', '{"a":"x\\udc00"}'],
    ['high surrogate followed by a non-low', '{"a":"\\ud83d\\u0041"}'],
    ['lone surrogate in a key', '{"\\udfff":1}'],
    ['integer 2^53', '{"a":9007199254740992}'],
    ['negative integer beyond 2^53', '[-9007199254740993]'],
    ['integer beyond 2^53 written with a fraction', '[9007199254740993.0]'],
    ['non-finite number', '{"a":1e400}'],
    ['negative non-finite number', '[-1e999]'],
    ['trailing garbage', '{"a":1} x'],
    ['syntax error', '{"a":}'],
  ])('refuses %s', (_what, text) => {
    expect(() => parseStrictJson(text)).toThrow(StrictJsonError);
  });

  it('accepts what canonicalizes safely, __proto__ as a plain key included', () => {
    expect(parseStrictJson('{"a":9007199254740991,"b":-9007199254740991,"c":1e300,"d":"\\ud83d\\ude00","e":[1.5,0,-0]}')).toEqual({
      a: 9007199254740991,
      b: -9007199254740991,
      c: 1e300,
      d: '😀',
      e: [1.5, 0, -0],
    });
    const withProto = parseStrictJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.keys(withProto)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

function unsignedRecord(kid: string): UnsignedRecord {
  const inputs: DecisionInputs = {
    agent_id: 'agent-7',
    action: 'payments.refund',
    authority_status: 'VALID',
    human_present: false,
    consequence_tier: 'LOW',
    timestamp: '2026-11-22T12:00:00.000Z',
    behavior: { fingerprint: 'fp-1', drift: 0.05 },
    mandate: ['payments.*'],
    baseline: { fingerprint: 'fp-1', max_drift: 0.2 },
    delegation: {
      delegation_id: '3f1c1d5e-9a43-4e39-9d7f-0b3f9f5d2a11',
      granted_by: 'cfo',
      expires_at: '2026-11-23T12:00:00.000Z',
      revoked_at: null,
    },
  };
  const { gates, disposition } = evaluateGates(inputs);
  return {
    record_id: '0b5e1f0e-2a8f-4c1a-9f8e-3f9f1b0c7d21',
    execution_id: '6b7d3c1e-8f2a-4b5c-9d0e-1f2a3b4c5d6e',
    agent_id: 'agent-7',
    action: 'payments.refund',
    inputs,
    gates,
    disposition,
    policy_version: POLICY_VERSION,
    issued_at: '2026-11-22T12:00:00.000Z',
    expires_at: '2026-11-22T12:05:00.000Z',
    nonce: 'a'.repeat(32),
    seq: 1,
    prev_hash: GENESIS_HASH,
    key_id: kid,
  };
}

/** Every leaf path of a JSON value, as key lists. */
function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    return entries.flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
  }
  return [prefix];
}

function mutate(record: Record<string, unknown>, path: (string | number)[]): Record<string, unknown> {
  const copy = structuredClone(record);
  let node: any = copy;
  for (const k of path.slice(0, -1)) node = node[k];
  const last = path[path.length - 1]!;
  const old = node[last];
  node[last] = typeof old === 'string' ? `${old}x` : typeof old === 'number' ? old + 1 : typeof old === 'boolean' ? !old : 'changed';
  return copy;
}

describe('Ed25519 seal over JCS', () => {
  const pair = keyPairFromSeed(randomBytes(32));
  const kid = keyIdOf(pair.publicKey);
  const keys = new Map([[kid, new Uint8Array(pair.publicKey)]]);
  const { record, canonical } = sealRecord(unsignedRecord(kid), pair.privateKey);

  it('signs the JCS of the record without `signature`, base64url, verifiable by @noble/ed25519', () => {
    expect(record.signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    const { signature, ...unsigned } = record;
    expect(signingBytes(record).toString('utf8')).toBe(referenceJcs(unsigned));
    expect(
      ed.verify(Buffer.from(signature, 'base64url'), new Uint8Array(Buffer.from(referenceJcs(unsigned))), new Uint8Array(pair.publicKey), {
        zip215: false,
      }),
    ).toBe(true);
    expect(verifyRecordSignature(record, keys)).toEqual({ valid: true, key_id: kid });
  });

  it('answers the canonical text of the whole signed record, signature last, for any field values', () => {
    expect(canonical).toBe(referenceJcs(record));
    expect(canonical.endsWith(`,"signature":"${record.signature}"}`)).toBe(true);
    const text = fc.string({ unit: 'grapheme', maxLength: 12 });
    fc.assert(
      fc.property(text, text, text, fc.integer({ min: 1, max: 2 ** 31 }), (agentId, action, fingerprint, seq) => {
        const unsigned = unsignedRecord(kid);
        const varied = {
          ...unsigned,
          agent_id: agentId,
          action,
          seq,
          inputs: { ...unsigned.inputs, baseline: { fingerprint, max_drift: 0.5 } },
        };
        const sealed = sealRecord(varied, pair.privateKey);
        expect(sealed.canonical).toBe(referenceJcs(sealed.record));
        expect(verifyRecordSignature(sealed.record, keys).valid).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('canonicalizes a record whole when one of its field names sorts after "signature"', () => {
    const extended = { ...unsignedRecord(kid), zone: 'eu' } as UnsignedRecord;
    const sealed = sealRecord(extended, pair.privateKey);
    expect(sealed.canonical).toBe(referenceJcs(sealed.record));
    expect(sealed.canonical.endsWith(',"zone":"eu"}')).toBe(true);
  });

  it('verifies a signature made by @noble/ed25519 over the reference bytes with node:crypto', () => {
    const secret = ed.utils.randomSecretKey();
    const pub = ed.getPublicKey(secret);
    const otherKid = keyIdOf(pub);
    const { signature: _s, ...unsigned } = { ...record, key_id: otherKid };
    const sig = ed.sign(new Uint8Array(Buffer.from(referenceJcs(unsigned))), secret);
    const signed = { ...unsigned, signature: Buffer.from(sig).toString('base64url') };
    expect(verifyRecordSignature(signed, new Map([[otherKid, pub]])).valid).toBe(true);
  });

  it('covers every field: changing any one leaf, top-level or nested, invalidates the signature', () => {
    const paths = leafPaths(record).filter((p) => p[0] !== 'signature');
    expect(paths.length).toBeGreaterThan(30);
    const topLevel = new Set(paths.map((p) => p[0]));
    expect([...topLevel].sort()).toEqual(
      Object.keys(record)
        .filter((k) => k !== 'signature')
        .sort(),
    );
    for (const path of paths) {
      const check = verifyRecordSignature(mutate(record, path), keys);
      expect(check.valid, `changing ${path.join('.')}`).toBe(false);
    }
    for (const field of Object.keys(record).filter((k) => k !== 'signature' && k !== 'key_id')) {
      const { [field]: _removed, ...without } = record as Record<string, unknown>;
      expect(verifyRecordSignature(without, keys).valid, `removing ${field}`).toBe(false);
    }
    expect(verifyRecordSignature({ ...record, extra: 1 }, keys).valid).toBe(false);
  });

  it('rejects a flipped signature bit, a malformed signature, an unknown key id and non-objects', () => {
    const sig = Buffer.from(record.signature, 'base64url');
    sig[10] = sig[10]! ^ 1;
    expect(verifyRecordSignature({ ...record, signature: sig.toString('base64url') }, keys)).toMatchObject({ valid: false });
    expect(verifyRecordSignature({ ...record, signature: 'abc' }, keys)).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/malformed/),
    });
    expect(verifyRecordSignature({ ...record, key_id: '0000000000000000' }, keys)).toMatchObject({
      valid: false,
      reason: 'unknown key_id',
    });
    expect(verifyRecordSignature([record], keys).valid).toBe(false);
    expect(verifyRecordSignature(null, keys).valid).toBe(false);
  });

  it('refuses small-order and non-canonical public keys', () => {
    const identity = new Uint8Array(32);
    identity[0] = 1;
    const orderFour = new Uint8Array(32);
    const nonCanonical = new Uint8Array(32).fill(0xff);
    nonCanonical[31] = 0x7f;
    for (const bad of [identity, orderFour, nonCanonical, new Uint8Array(31)]) {
      expect(isAcceptablePublicKey(bad)).toBe(false);
    }
    expect(isAcceptablePublicKey(pair.publicKey)).toBe(true);
    expect(verifyRecordSignature({ ...record, key_id: 'weak' }, new Map([['weak', identity]]))).toMatchObject({
      valid: false,
      reason: 'the public key is not acceptable',
    });
  });

  it('hashes the whole record, signature included, for the next prev_hash', () => {
    expect(recordHash(record)).toBe(createHash('sha256').update(referenceJcs(record)).digest('hex'));
    // Another first character, whatever the random signature starts with (one run in 64 it was 'A').
    const other = record.signature.startsWith('A') ? 'B' : 'A';
    expect(recordHash({ ...record, signature: record.signature.replace(/^./, other) })).not.toBe(recordHash(record));
  });
});
