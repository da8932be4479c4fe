import { isSealedText, openText, sealText, type MasterKey } from './envelope.js';

/**
 * The master keys of this process: `current` seals everything written; every key in `all` (the
 * current one and DATA_KEY_PREVIOUS during a rotation) opens what was sealed under it.
 */
export interface DataKeys {
  current: MasterKey;
  all: ReadonlyMap<string, MasterKey>;
  /** `value` sealed for `context`, as text for a text column. */
  sealText(context: string, value: string): string;
  /**
   * The value of a text column sealed for `context`. A value from before encryption at rest is
   * answered as it is: the start-up pass seals those, and an instance of the previous version
   * may still write one during a rolling upgrade.
   */
  openText(context: string, value: string): string;
}

export function dataKeysOf(current: MasterKey, previous?: MasterKey): DataKeys {
  const all = new Map([[current.id, current]]);
  if (previous && previous.id !== current.id) all.set(previous.id, previous);
  return {
    current,
    all,
    sealText: (context, value) => sealText(current, context, value),
    openText: (context, value) => (isSealedText(value) ? openText(all, context, value) : value),
  };
}

/** The contexts the rows are sealed for: an envelope copied to another row does not open there. */
export const signingSeedContext = (kid: string) => `signing_keys.seed:${kid}`;
/** One context for both secret columns: rotating a webhook secret moves the sealed current secret to previous_secret as it is. */
export const WEBHOOK_SECRET_CONTEXT = 'webhook_endpoints.secret';
export const blobContext = (key: string) => `blob:${key}`;
