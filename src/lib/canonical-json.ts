import { createRequire } from 'node:module';

// canonicalize ships CommonJS whose default export the ESM types do not see; requiring it keeps
// its one function typed without interop guesses.
const canonicalize = createRequire(import.meta.url)('canonicalize') as (input: unknown) => string | undefined;

/** The previous hash of a chain's first link: 64 zeros (governance records, identity audit entries). */
export const GENESIS_HASH = '0'.repeat(64);

/** RFC 8785 (JCS) canonical JSON text of a value; throws on values JCS cannot represent. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('value has no canonical JSON form');
  return text;
}
