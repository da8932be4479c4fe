import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { MASTER_KEY_BYTES, masterKeyOf, type MasterKey } from './envelope.js';

export type MasterKeySettings = Pick<Config, 'DATA_DIR' | 'DATA_KEY' | 'DATA_KEY_FILE' | 'DATA_KEY_PREVIOUS' | 'DATA_KEY_PREVIOUS_FILE'>;

/** The master key cannot be had, or does not open this deployment's data: the process must not start. */
export class DataKeyError extends Error {}

export const keyFileOf = (settings: MasterKeySettings) => settings.DATA_KEY_FILE ?? join(settings.DATA_DIR, 'data.key');

/** The key in `file` (base64 of 32 bytes, a trailing newline allowed); undefined when there is no such file. */
function readKeyFile(file: string, variable: string): MasterKey | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new DataKeyError(`${variable} ${file} cannot be read (${code ?? (err as Error).message})`);
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== MASTER_KEY_BYTES || !/^[A-Za-z0-9+/]+={0,2}$/.test(text.trim())) {
    throw new DataKeyError(
      `${variable} ${file} does not hold a data key: it must be the base64 of ${MASTER_KEY_BYTES} bytes (openssl rand -base64 32), it holds ${key.length} bytes`,
    );
  }
  return masterKeyOf(key);
}

export interface MasterKeys {
  /** The key this process seals with; undefined when DATA_KEY is unset and its file does not exist yet. */
  current: MasterKey | undefined;
  /** Where `current` comes from, for messages (never the key itself). */
  source: string;
  /** A former key, read only (rotation). */
  previous: MasterKey | undefined;
}

/** The master keys the settings name, read and checked; the key file is not created here (see createKeyFile). */
export function readMasterKeys(settings: MasterKeySettings): MasterKeys {
  const current = settings.DATA_KEY
    ? masterKeyOf(Buffer.from(settings.DATA_KEY, 'base64'))
    : readKeyFile(keyFileOf(settings), 'DATA_KEY_FILE');
  const source = settings.DATA_KEY ? 'DATA_KEY' : `DATA_KEY_FILE ${keyFileOf(settings)}`;
  let previous: MasterKey | undefined;
  if (settings.DATA_KEY_PREVIOUS) previous = masterKeyOf(Buffer.from(settings.DATA_KEY_PREVIOUS, 'base64'));
  else if (settings.DATA_KEY_PREVIOUS_FILE) {
    previous = readKeyFile(settings.DATA_KEY_PREVIOUS_FILE, 'DATA_KEY_PREVIOUS_FILE');
    if (!previous) throw new DataKeyError(`DATA_KEY_PREVIOUS_FILE ${settings.DATA_KEY_PREVIOUS_FILE} does not exist`);
  }
  return { current, source, previous };
}

/**
 * Generates the key file on the first start of a deployment with neither DATA_KEY nor a key
 * file: readable by this user only (0600). `wx`: when another process made it first, its key is
 * the one read back, so two first starts cannot end with two keys.
 */
export function createKeyFile(file: string): MasterKey {
  mkdirSync(join(file, '..'), { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(MASTER_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new DataKeyError(`DATA_KEY_FILE ${file} cannot be created (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  const key = readKeyFile(file, 'DATA_KEY_FILE');
  if (!key) throw new DataKeyError(`DATA_KEY_FILE ${file} vanished as it was created`);
  return key;
}
