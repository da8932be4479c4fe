import fc from 'fast-check';

/**
 * Request generators for the property suite, built only from what the OpenAPI document says
 * about an operation (its method, path, parameters and JSON body schema), so a route added
 * tomorrow is covered without code here.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = Record<string, any>;

export interface Operation {
  operationId: string;
  method: string;
  /** OpenAPI path template: `/v1/verifications/{id}`. */
  path: string;
  tags: string[];
  pathParams: string[];
  queryParams: string[];
  /** The JSON body schema, when the operation takes one. */
  bodySchema?: Schema;
  /** The text fields the document lists for a multipart/form-data body, if any. */
  formFields: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every operation of the document, flattened. */
export function operationsOf(doc: {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema> };
}): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method) || !op || typeof op !== 'object') continue;
      const params = [...((item.parameters as any[]) ?? []), ...((op.parameters as any[]) ?? [])];
      const content = op.requestBody?.content ?? {};
      ops.push({
        operationId: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        tags: op.tags ?? [],
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodySchema: content['application/json']?.schema,
        formFields: Object.keys(content['multipart/form-data']?.schema?.properties ?? {}),
      });
    }
  }
  return ops;
}

/** Resolves a local `$ref` of the document. */
export function resolver(doc: any): (schema: Schema | undefined) => Schema | undefined {
  return (schema) => {
    let s = schema;
    for (let i = 0; s && typeof s.$ref === 'string' && i < 20; i++) {
      s = s.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((node: any, key: string) => node?.[key], doc);
    }
    return s;
  };
}

/**
 * A plausible valid value for a JSON schema: required and optional properties, enums and
 * consts, the formats the APIs use, bounds respected. Where a route needs more (an existing
 * id, a price pattern), the suite's seed table gives a known-good body instead.
 */
export function sampleOf(schema: Schema | undefined, resolve: (s: Schema | undefined) => Schema | undefined, depth = 0): Json {
  const s = resolve(schema);
  if (!s || depth > 8) return null;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if ('default' in s) return s.default;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if ('example' in s) return s.example;
  const alternatives = s.anyOf ?? s.oneOf;
  if (Array.isArray(alternatives) && alternatives.length) {
    const notNull = alternatives.find((a: Schema) => resolve(a)?.type !== 'null') ?? alternatives[0];
    return sampleOf(notNull, resolve, depth + 1);
  }
  if (Array.isArray(s.allOf) && s.allOf.length) return sampleOf(Object.assign({}, ...s.allOf.map(resolve)), resolve, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type ?? (s.properties ? 'object' : undefined)) {
    case 'object': {
      const out: Record<string, Json> = {};
      for (const [key, prop] of Object.entries((s.properties ?? {}) as Record<string, Schema>))
        out[key] = sampleOf(prop, resolve, depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sampleOf(s.items, resolve, depth + 1));
    case 'string':
      return sampleString(s);
    case 'integer':
    case 'number': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : undefined);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : undefined);
      return min !== undefined ? min : max !== undefined ? Math.min(max, 1) : 1;
    }
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function sampleString(s: Schema): string {
  switch (s.format) {
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    case 'date-time':
      return '2030-01-01T00:00:00.000Z';
    case 'date':
      return '2030-01-01';
    case 'email':
      return 'ada@example.com';
    case 'uri':
    case 'url':
      return 'https://127.0.0.1:9/hooks';
  }
  const min = s.minLength ?? 1;
  return 'sample text'.padEnd(min, 'x').slice(0, s.maxLength ?? 200);
}

/** Every path to a value inside `value` (object keys and array indexes), the root included. */
export function pathsOf(value: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...at, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], out);
  return out;
}

/** `value` with the member at `path` replaced (or removed when `replacement` is undefined). */
export function replaceAt(value: Json, path: (string | number)[], replacement: Json | undefined): Json | undefined {
  if (path.length === 0) return replacement;
  const copy: any = structuredClone(value);
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  const last = path[path.length - 1]!;
  if (replacement === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = replacement;
  return copy;
}

/** Characters that break naive code: NUL, lone surrogates, quotes, escapes, separators, RTL, emoji. */
const nastyPiece = fc.oneof(
  fc.constantFrom(
    '\u0000',
    '\ud800',
    '\udfff',
    '\\',
    '"',
    "'",
    '%',
    '%00',
    '/',
    '..',
    '\n',
    '\r\n',
    '😀',
    '\u202e',
    '\ufeff',
    '$',
    '{',
    '}',
    '[',
    ']',
    '&',
    '=',
    '?',
    '#',
    ';',
    '--',
    ' OR 1=1',
    '__proto__',
    'constructor',
  ),
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.string({ maxLength: 8 }),
);
export const nastyString = fc.array(nastyPiece, { maxLength: 6 }).map((parts) => parts.join(''));

/** Any JSON value, its strings including the nasty ones. */
export const anyJson: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: nastyString },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Json>(
      -1,
      0,
      1e308,
      -1e308,
      2 ** 53 + 1,
      0.1,
      '',
      ' ',
      [],
      {},
      [null],
      { a: null },
      'x'.repeat(5000),
      true,
      null,
    ),
  },
  { weight: 1, arbitrary: fc.dictionary(nastyString, fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>, { maxKeys: 3 }) },
);

/** Text PostgreSQL cannot store, somewhere inside an otherwise ordinary string. */
export const unstorableString = fc
  .tuple(fc.string({ maxLength: 6 }), fc.constantFrom('\u0000', '\ud800', '\udc00', '\u0000\u0000'), fc.string({ maxLength: 6 }))
  .map(([a, bad, b]) => `${a}${bad}${b}`);

/** Every UTF-8 byte of `text` percent-encoded (a lone surrogate becomes U+FFFD, as any client would send it). */
export function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
}

/** A path segment that is not what the route expects: traversal, encodings, NUL, huge, near-UUIDs. */
export const hostileId = fc.oneof(
  fc.constantFrom(
    '%00',
    '..',
    '.',
    '0',
    '-1',
    'null',
    'undefined',
    "' OR '1'='1",
    '00000000-0000-0000-0000-000000000000',
    'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
    '00000000-0000-4000-8000-00000000000g',
    '{00000000-0000-4000-8000-000000000000}',
    'x'.repeat(3000),
    '%E0%A4%A',
    '%ED%A0%80',
    '%C0%AE',
  ),
  nastyString.filter((s) => s.length > 0).map(percentEncoded),
  fc.uuid().map((u) => u.toUpperCase()),
);

/** A query string: known parameters and random ones, repeated keys, NULs, broken escapes. */
export function hostileQuery(known: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    fc.constantFrom(...(known.length ? known : ['page']), '__proto__', 'constructor', 'page[]', 'limit', ''),
    nastyString.map(percentEncoded),
  );
  const value = fc.oneof(
    fc.constantFrom('%00', '-1', '0', '1e9', '99999999999999999999', 'NaN', '', '%', '%zz', '%ED%A0%80', 'true', '[]', 'a,b'),
    nastyString.map(percentEncoded),
  );
  return fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 5 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
}

export const rawContentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'multipart/form-data',
  'application/xml',
  'image/png',
  ';;;',
);

/** Bytes that are not JSON: random, truncated JSON, BOMs, invalid UTF-8. */
export const rawBytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc
    .constantFrom(
      '{',
      '{"a":',
      '[1,2',
      '{"a":1}{"b":2}',
      '\ufeff{}',
      'null',
      '"\\u0000"',
      '{"a":"\\ud800"}',
      '{"__proto__":{"x":1}}',
      '{"a":1,"a":2}',
      'NaN',
      '1e999999',
    )
    .map((s) => Buffer.from(s)),
  fc.constant(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])),
  fc.constant(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])),
);

/** A real multipart/form-data body from text fields and an optional file part. */
export function multipartBody(fields: [string, string][], file?: Buffer): { payload: Buffer; contentType: string } {
  const boundary = 'propertyboundary7d1c';
  const chunks: Buffer[] = [];
  for (const [name, value] of fields) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n`),
      Buffer.from(value),
      Buffer.from('\r\n'),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
