import { open, readFile, rename } from 'node:fs/promises';
import type { Seen } from './rules.js';

/**
 * The latest checkpoint the witness cosigned per log origin, in a JSON file next to its key.
 * Each change is written to a new file, flushed and renamed over the old one before the witness
 * answers (C2SP `tlog-witness`: persist before responding), so a crash leaves the old state or
 * the new, never half of one.
 */
export interface WitnessState {
  get(origin: string): Seen | undefined;
  set(origin: string, seen: Seen): Promise<void>;
}

export async function openWitnessState(file: string): Promise<WitnessState> {
  let origins: Record<string, Seen> = {};
  try {
    origins = (JSON.parse(await readFile(file, 'utf8')) as { origins: Record<string, Seen> }).origins;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`cannot read the witness state ${file}: ${(err as Error).message}`);
  }
  return {
    get: (origin) => (Object.hasOwn(origins, origin) ? origins[origin] : undefined),
    async set(origin, seen) {
      const next = { ...origins, [origin]: seen };
      const temporary = `${file}.${process.pid}.tmp`;
      const handle = await open(temporary, 'w', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify({ origins: next }, null, 2)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, file);
      origins = next;
    },
  };
}
