import { beforeAll, describe, expect, it } from 'vitest';
import { flagSpec } from '../../src/cli/cli-args.js';
import { OPERATOR_COMMANDS } from '../../src/cli/cli-commands.js';
import { useTestApp } from '../helpers/suite.js';

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
}
interface Operation {
  operationId?: string;
  parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/** The body's fields over every member of a union, and those every member requires. */
function bodyFields(schema: Schema | undefined): { all: Set<string>; required: Set<string> } {
  const members = schema?.anyOf ?? schema?.oneOf ?? (schema ? [schema] : []);
  const all = new Set(members.flatMap((m) => Object.keys(m.properties ?? {})));
  const required = new Set([...all].filter((name) => members.every((m) => m.required?.includes(name))));
  return { all, required };
}

/** The values a schema admits when it is an enumeration (or a list of one), else undefined. */
function enumOf(schema: Schema | undefined): string[] | undefined {
  if (!schema) return undefined;
  if (schema.enum) return schema.enum.map(String);
  if (schema.const !== undefined) return [String(schema.const)];
  if (schema.items) return enumOf(schema.items);
  const members = (schema.anyOf ?? schema.oneOf ?? []).map(enumOf);
  return members.length && members.every(Boolean) ? [...new Set(members.flatMap((m) => m!))] : undefined;
}

/** Each parameter's and body field's allowed values, over every member of a body union. */
function enumsOf(op: Operation): Map<string, string[]> {
  const enums = new Map<string, string[]>();
  const add = (name: string, values: string[] | undefined) => {
    if (values) enums.set(name, [...new Set([...(enums.get(name) ?? []), ...values])]);
  };
  for (const p of op.parameters ?? []) if (p.in !== 'header') add(p.name, enumOf(p.schema));
  const body = op.requestBody?.content?.['application/json']?.schema;
  for (const member of body?.anyOf ?? body?.oneOf ?? (body ? [body] : [])) {
    for (const [name, field] of Object.entries(member.properties ?? {})) add(name, enumOf(field));
  }
  return enums;
}

const sorted = (values: Iterable<string>) => [...values].sort();

describe('the operator CLI command table', () => {
  const { ctx } = useTestApp();
  let operations: { method: string; path: string; op: Operation }[];
  beforeAll(async () => {
    const doc = ctx.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/admin/v1/'))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path: path.slice('/admin/v1'.length), op })),
      );
  });

  it('has exactly one command per operator operation, with its method and path', () => {
    const fromDoc = operations.map((o) => `${o.op.operationId} ${o.method} ${o.path}`).sort();
    const fromTable = OPERATOR_COMMANDS.map((c) => `${c.operationId} ${c.method} ${c.path}`).sort();
    expect(fromTable).toEqual(fromDoc);
  });

  it('names every parameter and body field of each operation, and marks what is required', () => {
    for (const { op } of operations) {
      const command = OPERATOR_COMMANDS.find((c) => c.operationId === op.operationId)!;
      const flags = command.flags.map(flagSpec);
      const topLevel = new Map<string, boolean>();
      for (const f of flags) {
        const top = f.name.split('.')[0]!;
        topLevel.set(top, (topLevel.get(top) ?? false) || f.required);
      }
      const body = bodyFields(op.requestBody?.content?.['application/json']?.schema);
      // Headers (Idempotency-Key) are not flags: the CLI sends the operator token and nothing else.
      const params = (op.parameters ?? []).filter((p) => p.in !== 'header');
      const expected = new Map<string, boolean>([
        ...params.map((p): [string, boolean] => [p.name, Boolean(p.required)]),
        ...[...body.all].map((name): [string, boolean] => [name, body.required.has(name)]),
      ]);
      expect(Object.fromEntries(topLevel), op.operationId).toEqual(Object.fromEntries(expected));
      expect(command.description.length, op.operationId).toBeGreaterThan(10);
      expect(command.description, op.operationId).not.toContain('\n');
    }
  });

  it("offers each enumerated flag's allowed values, the same as the OpenAPI document's", () => {
    for (const { op } of operations) {
      const command = OPERATOR_COMMANDS.find((c) => c.operationId === op.operationId)!;
      const fromDoc = enumsOf(op);
      const choices = command.choices ?? {};
      const offered = Object.fromEntries(
        Object.entries(choices).map(([flag, c]) => [flag, sorted(Array.isArray(c) ? c : Object.values(c).flat())]),
      );
      expect(offered, op.operationId).toEqual(Object.fromEntries([...fromDoc].map(([name, values]) => [name, sorted(values)])));
    }
  });

  it("groups a key's scopes by the service they go with, as the body's union does", () => {
    const command = OPERATOR_COMMANDS.find((c) => c.operationId === 'createApiKey')!;
    const { op } = operations.find((o) => o.op.operationId === 'createApiKey')!;
    const body = op.requestBody!.content!['application/json']!.schema!;
    const members = body.anyOf ?? body.oneOf ?? [];
    const byService = Object.fromEntries(
      members.filter((m) => m.properties?.scopes).map((m) => [enumOf(m.properties!.service)![0]!, sorted(enumOf(m.properties!.scopes)!)]),
    );
    const scopes = command.choices!.scopes as Record<string, readonly string[]>;
    expect(Object.fromEntries(Object.entries(scopes).map(([service, values]) => [service, sorted(values)]))).toEqual(byService);
  });
});
