/**
 * Text PostgreSQL cannot store. A text or jsonb value cannot hold the NUL character (U+0000),
 * and a lone UTF-16 surrogate (JSON allows `"\ud800"`) is not valid Unicode: text silently
 * becomes U+FFFD on the way to the database, jsonb fails the insert. Both are refused at the
 * edge, before any query, with the path of the field that holds them.
 */
interface UnstorableText {
  /** Where the text is: object keys and array indexes from the root of the checked value. */
  path: (string | number)[];
  message: string;
}

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
const SURROGATE_MESSAGE = 'must not contain a lone UTF-16 surrogate (not valid Unicode)';
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const SUSPECT = /[\u0000\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be stored, or null when it can. */
export function unstorableTextReason(text: string): string | null {
  if (!SUSPECT.test(text)) return null;
  if (text.includes('\u0000')) return NUL_MESSAGE;
  return LONE_SURROGATE.test(text) ? SURROGATE_MESSAGE : null;
}

/** One step of the walk: a value and how it was reached, so paths are built only when needed. */
interface Step {
  value: unknown;
  key: string | number | undefined;
  parent: Step | undefined;
}

function pathTo(step: Step | undefined, root: (string | number)[]): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let s = step; s && s.key !== undefined; s = s.parent) keys.push(s.key);
  return [...root, ...keys.reverse()];
}

/**
 * The first string in `value` (any JSON-like value: nested objects and arrays, keys included)
 * that cannot be stored, or null. A bad key is reported at the object that holds it. The walk
 * keeps its own stack, so no nesting depth a parser accepts can overflow it.
 */
export function findUnstorableText(value: unknown, path: (string | number)[] = []): UnstorableText | null {
  const pending: Step[] = [{ value, key: undefined, parent: undefined }];
  while (pending.length > 0) {
    const step = pending.pop()!;
    const current = step.value;
    if (typeof current === 'string') {
      const message = unstorableTextReason(current);
      if (message) return { path: pathTo(step, path), message };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], key: i, parent: step });
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      for (const [key] of entries) {
        const keyReason = unstorableTextReason(key);
        if (keyReason) return { path: pathTo(step, path), message: `property names ${keyReason}` };
      }
      for (let i = entries.length - 1; i >= 0; i--) pending.push({ value: entries[i]![1], key: entries[i]![0], parent: step });
    }
  }
  return null;
}
