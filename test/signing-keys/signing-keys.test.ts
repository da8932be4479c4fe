import { randomBytes, sign, verify } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import { keyIdOf, keyPairFromSeed } from '../../src/lib/ed25519.js';
import { liveSigningKey, publishedKeys } from '../../src/signing-keys/service.js';
import { useTestApp } from '../helpers/suite.js';

describe('signing keys', () => {
  const { ctx } = useTestApp();

  it('derives the same public key from a seed as @noble/ed25519', async () => {
    const seed = randomBytes(32);
    const pair = keyPairFromSeed(seed);
    expect(Buffer.from(await ed.getPublicKeyAsync(seed)).equals(pair.publicKey)).toBe(true);
    const message = Buffer.from('canonical bytes');
    const signature = sign(null, message, pair.privateKey);
    expect(await ed.verifyAsync(signature, message, pair.publicKey)).toBe(true);
    expect(keyIdOf(pair.publicKey)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('generates a key once per purpose and returns it again', async () => {
    const first = await liveSigningKey(ctx.app.db, ctx.clock, ctx.app.dataKeys, 'attestation');
    const again = await liveSigningKey(ctx.app.db, ctx.clock, ctx.app.dataKeys, 'attestation');
    expect(again.kid).toBe(first.kid);
    const other = await liveSigningKey(ctx.app.db, ctx.clock, ctx.app.dataKeys, 'identity-webhook');
    expect(other.kid).not.toBe(first.kid);
    const message = Buffer.from('x');
    expect(verify(null, message, again.publicKeyObject, sign(null, message, first.privateKey))).toBe(true);
  });

  it('settles on one key when several callers race', async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => liveSigningKey(ctx.app.db, ctx.clock, ctx.app.dataKeys, 'governance')));
    expect(new Set(keys.map((k) => k.kid)).size).toBe(1);
  });

  it('rotates to a configured seed and keeps the retired key published', async () => {
    const generated = await liveSigningKey(ctx.app.db, ctx.clock, ctx.app.dataKeys, 'governance');
    const seed = randomBytes(32);
    const configured = await liveSigningKey(ctx.app.db, ctx.clock, ctx.app.dataKeys, 'governance', seed);
    expect(configured.kid).not.toBe(generated.kid);
    const published = await publishedKeys(ctx.app.db, 'governance');
    expect(published.find((k) => k.kid === generated.kid)?.retiredAt).toEqual(expect.any(String));
    expect(published.find((k) => k.kid === configured.kid)?.retiredAt).toBeNull();
    expect((await liveSigningKey(ctx.app.db, ctx.clock, ctx.app.dataKeys, 'governance', seed)).kid).toBe(configured.kid);
  });
});
