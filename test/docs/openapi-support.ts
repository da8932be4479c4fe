import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => void;

/**
 * Validates values against schemas of an OpenAPI 3.1 document (JSON Schema 2020-12), resolving
 * their `#/components/...` references in the document. Returns the errors, empty when valid.
 */
export function compileSchemaValidator(doc: object): (schema: unknown, value: unknown) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  const components = (doc as { components?: unknown }).components;
  return (schema, value) => {
    const validate = ajv.compile({ ...(schema as object), components });
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'}`);
  };
}

/** The JSON types of a value, recursively: object keys, the first element of arrays, null. */
function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Where two JSON values differ in shape (keys and the types of their values, arrays by their
 * first elements), as `path: expected … found …` lines; values themselves may differ.
 */
export function shapeDifferences(example: unknown, real: unknown, path = ''): string[] {
  const at = path || '/';
  if (kind(example) !== kind(real)) return [`${at}: the example has ${kind(example)}, the answer ${kind(real)}`];
  if (Array.isArray(example) && Array.isArray(real)) {
    if (example.length === 0 || real.length === 0)
      return example.length === real.length ? [] : [`${at}: one of the example and the answer is an empty array`];
    return shapeDifferences(example[0], real[0], `${path}/0`);
  }
  if (kind(example) !== 'object') return [];
  const a = example as Record<string, unknown>;
  const b = real as Record<string, unknown>;
  const out: string[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!(key in b)) out.push(`${path}/${key}: in the example, not in the answer`);
    else if (!(key in a)) out.push(`${path}/${key}: in the answer, not in the example`);
    else out.push(...shapeDifferences(a[key], b[key], `${path}/${key}`));
  }
  return out;
}
