import type { DbOrTx } from '../db/client.js';
import { dataKeysOf, type DataKeys } from './data-keys.js';
import { envelopeOfText, EnvelopeDamaged, isSealedText, masterKeyIdOf, open, rewrapText } from './envelope.js';
import { createKeyFile, DataKeyError, keyFileOf, readMasterKeys, type MasterKeySettings } from './master-key.js';
import { secretCells } from './rows.js';

const sameKeyEverywhere =
  'every instance of one deployment needs the same key (docs/operations.md, "Encryption at rest"); during a rotation the former key goes in DATA_KEY_PREVIOUS';

/**
 * The master keys of this process, checked against the database before anything is served
 * (docs/operations.md, "Encryption at rest"):
 * - no DATA_KEY and no key file: on a database holding no sealed data yet (a new deployment, or
 *   one upgraded from before encryption at rest) the key file is generated, 0600; otherwise the
 *   start is refused, since a new key would open nothing;
 * - every sealed cell must open with the keys given (DATA_KEY, DATA_KEY_PREVIOUS): a wrong key
 *   refuses the start, naming the key ids, rather than failing request by request later;
 * - cells still in plain (from before) are sealed in place, under compare-and-set.
 */
export async function settleDataKeys(settings: MasterKeySettings, db: DbOrTx): Promise<{ keys: DataKeys; sealedRows: number }> {
  const given = readMasterKeys(settings);
  const cells = await secretCells(db);
  const sealedIds = new Set(cells.filter((c) => isSealedText(c.value)).map((c) => masterKeyIdOf(envelopeOfText(c.value))));
  let current = given.current;
  if (!current) {
    if (sealedIds.size > 0) {
      throw new DataKeyError(
        `no data key: DATA_KEY is unset and ${keyFileOf(settings)} does not exist, but the database holds secrets sealed under master key ${[...sealedIds].join(', ')}. ` +
          `Put that key back (DATA_KEY, or its file; a backup does not hold it): ${sameKeyEverywhere}`,
      );
    }
    current = createKeyFile(keyFileOf(settings));
  }
  const keys = dataKeysOf(current, given.previous);
  const unknown = [...sealedIds].filter((id) => !keys.all.has(id));
  if (unknown.length > 0) {
    throw new DataKeyError(
      `wrong data key: ${given.source} is master key ${current.id}${given.previous ? ` (DATA_KEY_PREVIOUS ${given.previous.id})` : ''}, ` +
        `but the database holds secrets sealed under ${unknown.join(', ')}: ${sameKeyEverywhere}`,
    );
  }
  for (const cell of cells) {
    if (!isSealedText(cell.value)) continue;
    try {
      open(keys.all, cell.context, envelopeOfText(cell.value));
    } catch (err) {
      if (err instanceof EnvelopeDamaged) throw new DataKeyError(`${cell.name} does not open with its data key: ${err.message}`);
      throw err;
    }
  }
  return { keys, sealedRows: await sealPlainCells(db, keys) };
}

/** Seals the cells still in plain; a cell that changed while it was handled is read again. */
async function sealPlainCells(db: DbOrTx, keys: DataKeys): Promise<number> {
  let sealed = 0;
  for (let pass = 0; pass < 3; pass++) {
    const plain = (await secretCells(db)).filter((c) => !isSealedText(c.value));
    if (plain.length === 0) return sealed;
    for (const cell of plain) if (await cell.swap(keys.sealText(cell.context, cell.value))) sealed += 1;
  }
  return sealed;
}

/**
 * Rotation's part in the database: every cell sealed under another key than `keys.current`
 * gets its data key rewrapped under it (the secret itself is not decrypted), and a plain cell is
 * sealed. Under compare-and-set, beside running servers: a cell they changed meanwhile is
 * already sealed under a key they hold, and is read again.
 */
export async function rewrapCells(db: DbOrTx, keys: DataKeys): Promise<{ rewrapped: number; sealed: number }> {
  let rewrapped = 0;
  let sealed = 0;
  for (let pass = 0; pass < 5; pass++) {
    const stale = (await secretCells(db)).filter(
      (c) => !isSealedText(c.value) || masterKeyIdOf(envelopeOfText(c.value)) !== keys.current.id,
    );
    if (stale.length === 0) return { rewrapped, sealed };
    for (const cell of stale) {
      if (!isSealedText(cell.value)) {
        if (await cell.swap(keys.sealText(cell.context, cell.value))) sealed += 1;
      } else if (await cell.swap(rewrapText(keys.all, keys.current, cell.value))) rewrapped += 1;
    }
  }
  throw new Error('secrets kept changing during the rotation: run rotate-data-key again');
}
