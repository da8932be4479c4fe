import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';

/**
 * The at-rest envelope (docs/operations.md, "Encryption at rest"): every secret row and every stored image is
 * encrypted with AES-256-GCM under a fresh random data key of its own, and that data key is kept
 * beside it wrapped (AES-256-GCM again) under the deployment's master key. Rotating the master key
 * rewraps the 32-byte data keys and never touches the data.
 *
 *   offset  bytes  field
 *        0      3  magic "ENC"
 *        3      1  version (1)
 *        4      8  master key id: the first 8 bytes of SHA-256("data-key-id:" ‖ master key)
 *       12     12  wrap IV
 *       24     32  data key, encrypted under the master key
 *       56     16  wrap tag (GCM; additional data: bytes 0–11, so version and key id are bound)
 *       72     12  data IV
 *       84      n  data, encrypted under the data key
 *     84+n     16  data tag (GCM; additional data: the version byte and the record's context)
 *
 * The context (a blob's key, a signing key's kid, "webhook-secret") is not stored: the reader
 * supplies it, so an envelope moved to another row or blob does not open there. It leaves out the
 * master key id, so a rewrap keeps the data bytes as they are.
 *
 * In a text column the envelope is `enc:` followed by its base64. Plaintext from before this
 * format (base64 seeds, `whsec_…` secrets, images) never starts with `enc:` or with "ENC" and a
 * version byte (an image starts with its format's magic bytes), so the header tells sealed from
 * plain: that is what lets the migration in place run again after an interruption.
 */
export const ENVELOPE_VERSION = 1;
const MAGIC = Buffer.from('ENC', 'latin1');
const KEY_ID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const DATA_KEY_BYTES = 32;
export const MASTER_KEY_BYTES = 32;
/** Bytes before the encrypted data. */
export const HEADER_BYTES = 3 + 1 + KEY_ID_BYTES + IV_BYTES + DATA_KEY_BYTES + TAG_BYTES + IV_BYTES;
/** Everything an envelope adds to its data. */
export const ENVELOPE_OVERHEAD = HEADER_BYTES + TAG_BYTES;
const WRAP_START = 4 + KEY_ID_BYTES;
const WRAP_END = WRAP_START + IV_BYTES + DATA_KEY_BYTES + TAG_BYTES;
const TEXT_PREFIX = 'enc:';

/** A master key and its id (hex of the 8 bytes the envelope carries). */
export interface MasterKey {
  id: string;
  key: Buffer;
}

/** The envelope names a master key this process was not given. */
export class UnknownMasterKey extends Error {
  constructor(readonly keyId: string) {
    super(`data sealed under master key ${keyId}, which this process was not given`);
  }
}

/** The envelope does not open: a wrong key of the same id (impossible short of a hash collision), or changed bytes. */
export class EnvelopeDamaged extends Error {}

export function masterKeyOf(key: Buffer): MasterKey {
  if (key.length !== MASTER_KEY_BYTES) throw new RangeError(`a master key is ${MASTER_KEY_BYTES} bytes, not ${key.length}`);
  const id = createHash('sha256').update('data-key-id:').update(key).digest().subarray(0, KEY_ID_BYTES).toString('hex');
  return { id, key };
}

/** True when `bytes` begins with an envelope's header of a version this code reads (`HEADER_BYTES` at least). */
export function hasHeader(bytes: Uint8Array): boolean {
  return (
    bytes.length >= HEADER_BYTES && bytes[0] === MAGIC[0] && bytes[1] === MAGIC[1] && bytes[2] === MAGIC[2] && bytes[3] === ENVELOPE_VERSION
  );
}

/** True when `bytes` is long enough to be a whole envelope and begins like one. */
export const isSealed = (bytes: Uint8Array) => bytes.length >= ENVELOPE_OVERHEAD && hasHeader(bytes);

export const isSealedText = (value: string) => value.startsWith(TEXT_PREFIX);

/** The id of the master key an envelope's data key is wrapped under. */
export function masterKeyIdOf(envelope: Uint8Array): string {
  if (!hasHeader(envelope)) throw new EnvelopeDamaged('not an envelope of a known version');
  return Buffer.from(envelope.subarray(4, WRAP_START)).toString('hex');
}

function wrapDataKey(master: MasterKey, dataKey: Buffer): Buffer {
  const prefix = Buffer.concat([MAGIC, Buffer.of(ENVELOPE_VERSION), Buffer.from(master.id, 'hex')]);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', master.key, iv).setAAD(prefix);
  const wrapped = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return Buffer.concat([prefix, iv, wrapped, cipher.getAuthTag()]);
}

function unwrapDataKey(envelope: Uint8Array, keys: ReadonlyMap<string, MasterKey>): Buffer {
  const id = masterKeyIdOf(envelope);
  const master = keys.get(id);
  if (!master) throw new UnknownMasterKey(id);
  const at = (from: number, length: number) => envelope.subarray(from, from + length);
  const iv = at(WRAP_START, IV_BYTES);
  const wrapped = at(WRAP_START + IV_BYTES, DATA_KEY_BYTES);
  const tag = at(WRAP_START + IV_BYTES + DATA_KEY_BYTES, TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', master.key, iv).setAAD(envelope.subarray(0, WRAP_START)).setAuthTag(tag);
    return Buffer.concat([decipher.update(wrapped), decipher.final()]);
  } catch {
    throw new EnvelopeDamaged(`the data key wrapped under master key ${id} does not open: the envelope was changed`);
  }
}

const dataAad = (context: string) => Buffer.concat([Buffer.of(ENVELOPE_VERSION), Buffer.from(context, 'utf8')]);

/** Encrypts `data` for `context` under a fresh data key wrapped by `master`. */
export function seal(master: MasterKey, context: string, data: Uint8Array): Buffer {
  const sealer = startSealing(master, context);
  return Buffer.concat([sealer.header, sealer.update(data), sealer.final()]);
}

/** The pieces of one envelope written as a stream: the header first, the data as it comes, the tag last. */
export function startSealing(master: MasterKey, context: string): { header: Buffer; update(d: Uint8Array): Buffer; final(): Buffer } {
  const dataKey = randomBytes(DATA_KEY_BYTES);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', dataKey, iv).setAAD(dataAad(context));
  const header = Buffer.concat([wrapDataKey(master, dataKey), iv]);
  dataKey.fill(0);
  return {
    header,
    update: (d) => cipher.update(d),
    final: () => Buffer.concat([cipher.final(), cipher.getAuthTag()]),
  };
}

/** A stream that writes the envelope of what passes through it. */
export function sealingStream(master: MasterKey, context: string): Transform {
  const sealer = startSealing(master, context);
  let started = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const out = sealer.update(chunk);
      if (!started) {
        started = true;
        done(null, Buffer.concat([sealer.header, out]));
      } else done(null, out);
    },
    flush(done) {
      const tail = sealer.final();
      done(null, started ? tail : Buffer.concat([sealer.header, tail]));
    },
  });
}

/** The data of an envelope sealed for `context`, opened with whichever of `keys` its id names. */
export function open(keys: ReadonlyMap<string, MasterKey>, context: string, envelope: Uint8Array): Buffer {
  if (!isSealed(envelope)) throw new EnvelopeDamaged(`the envelope of ${context} is cut short or of an unknown version`);
  const dataKey = unwrapDataKey(envelope, keys);
  const iv = envelope.subarray(WRAP_END, HEADER_BYTES);
  const tag = envelope.subarray(envelope.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', dataKey, iv).setAAD(dataAad(context)).setAuthTag(tag);
    return Buffer.concat([decipher.update(envelope.subarray(HEADER_BYTES, envelope.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new EnvelopeDamaged(`the envelope of ${context} does not open: it was changed, or belongs to another record`);
  }
}

/**
 * The same envelope with its data key wrapped under `to` instead (rotation). Only the first
 * HEADER_BYTES change, and their length stays: the data bytes are not read.
 */
export function rewrapHeader(keys: ReadonlyMap<string, MasterKey>, to: MasterKey, header: Uint8Array): Buffer {
  const dataKey = unwrapDataKey(header, keys);
  const rewrapped = Buffer.concat([wrapDataKey(to, dataKey), header.subarray(WRAP_END, HEADER_BYTES)]);
  dataKey.fill(0);
  return rewrapped;
}

export const sealText = (master: MasterKey, context: string, value: string) =>
  TEXT_PREFIX + seal(master, context, Buffer.from(value, 'utf8')).toString('base64');

export const envelopeOfText = (value: string) => Buffer.from(value.slice(TEXT_PREFIX.length), 'base64');

export const openText = (keys: ReadonlyMap<string, MasterKey>, context: string, value: string) =>
  open(keys, context, envelopeOfText(value)).toString('utf8');

export function rewrapText(keys: ReadonlyMap<string, MasterKey>, to: MasterKey, value: string): string {
  const envelope = envelopeOfText(value);
  const header = rewrapHeader(keys, to, envelope.subarray(0, HEADER_BYTES));
  return TEXT_PREFIX + Buffer.concat([header, envelope.subarray(HEADER_BYTES)]).toString('base64');
}
