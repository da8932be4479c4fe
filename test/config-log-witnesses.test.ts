import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { keyPairFromSeed } from '../src/lib/ed25519.js';
import { COSIGNATURE_ED25519, formatNoteKey, NOTE_ED25519 } from '../src/lib/signed-note.js';

const keyOf = (name: string, type = COSIGNATURE_ED25519) => formatNoteKey(name, type, keyPairFromSeed(randomBytes(32)).publicKey);

/** The one line loadConfig stops with. */
function refusal(value: string): string {
  try {
    loadConfig({ LOG_WITNESSES: value });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`LOG_WITNESSES=${value} was accepted`);
}

describe('LOG_WITNESSES', () => {
  it('is empty by default: no witness is asked', () => {
    expect(loadConfig({}).LOG_WITNESSES).toEqual([]);
  });

  it('reads comma-separated <name>+<key hash>+<base64 key>=<https URL>, the URL kept without a trailing slash', () => {
    const one = keyOf('witness.example/w1');
    const two = keyOf('oid/1.3.6.1.4.1.44363.48.7');
    const { LOG_WITNESSES } = loadConfig({ LOG_WITNESSES: `${one}=https://w1.example/ , ${two}=https://w2.example:8443/tlog` });
    expect(LOG_WITNESSES.map((w) => [w.name, w.verifierKey, w.url])).toEqual([
      ['witness.example/w1', one, 'https://w1.example'],
      ['oid/1.3.6.1.4.1.44363.48.7', two, 'https://w2.example:8443/tlog'],
    ]);
    expect(LOG_WITNESSES[0]!.publicKey).toHaveLength(32);
  });

  it.each([
    ['no URL', () => keyOf('w1'), /expected <name>\+<hex key hash>\+<base64 key>=<https URL>/],
    ['plain http', () => `${keyOf('w1')}=http://w1.example`, /must be https:\/\//],
    ['a query in the URL', () => `${keyOf('w1')}=https://w1.example/?a=b`, /query, fragment or credentials/],
    [
      'a log key (type 0x01) instead of a cosignature key',
      () => `${keyOf('w1', NOTE_ED25519)}=https://w1.example`,
      /cosignature key \(type 0x04\)/,
    ],
    [
      'a key hash that is not the key’s',
      () => `${keyOf('w1').replace(/\+[0-9a-f]{8}\+/, '+00000000+')}=https://w1.example`,
      /key hash does not match/,
    ],
    ['a name given twice', () => `${keyOf('w1')}=https://a.example,${keyOf('w1')}=https://b.example`, /witness 2 .*w1 is given twice/],
  ])('refuses %s with one line naming the setting and the witness', (_, value, message) => {
    const line = refusal(value());
    expect(line).toMatch(/^invalid configuration: LOG_WITNESSES: witness \d \(/);
    expect(line).toMatch(message);
  });
});
