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
}
interface Operation {
  operationId?: string;
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/** The body's fields over every member of a union, and those every member requires. */
function bodyFields(schema: Schema | undefined): { all: Set<string>; required: Set<string> } {
  const members = schema?.anyOf ?? schema?.oneOf ?? (schema ? [schema] : []);
  const all = new Set(members.flatMap((m) => Object.keys(m.properties ?? {})));
  const required = new Set([...all].filter((name) => members.every((m) => m.required?.includes(name))));
  return { all, required };
}

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
});
