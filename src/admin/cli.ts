import { randomBytes } from 'node:crypto';
import { buildApp } from '../app.js';
import { ConfigError, loadConfig } from '../config.js';
import { buildRequest, commandName, usage, UsageError, type OperatorCommand } from './cli-args.js';

/**
 * The operator API without HTTP: every /admin/v1 operation, named after its operationId,
 * run in-process against the configured database with the same validation and rules.
 * With the embedded database, stop the server first: PGlite is single-process.
 */
async function main(argv: string[]): Promise<number> {
  const env: NodeJS.ProcessEnv = { LOG_LEVEL: 'silent', ...process.env };
  const adminToken = env.ADMIN_TOKEN ?? randomBytes(24).toString('hex');
  const config = loadConfig({ ...env, ADMIN_TOKEN: adminToken });
  const app = await buildApp(config, { startJobs: false });
  try {
    await app.ready();
    const commands = operatorCommands(app.swagger() as OpenApiDoc);
    const [name, ...rest] = argv;
    if (!name || name === 'help' || name === '--help') {
      process.stdout.write(`${usage(commands)}\n`);
      return name ? 0 : 2;
    }
    const command = commands.find((c) => c.name === name);
    if (!command) throw new UsageError(`unknown command "${name}" (npm run admin -- help lists them)`);
    const request = buildRequest(command, rest);
    const res = await app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: { authorization: `Bearer ${adminToken}` },
      ...(request.body ? { payload: request.body } : {}),
    });
    process.stdout.write(`${JSON.stringify(res.body ? res.json() : { status: res.statusCode }, null, 2)}\n`);
    return res.statusCode < 400 ? 0 : 1;
  } finally {
    await app.close();
  }
}

interface OpenApiDoc {
  paths?: Record<string, Record<string, { operationId?: string; summary?: string }>>;
}

function operatorCommands(doc: OpenApiDoc): OperatorCommand[] {
  const commands: OperatorCommand[] = [];
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith('/admin/v1/')) continue;
    for (const [method, op] of Object.entries(operations)) {
      if (!op.operationId) continue;
      commands.push({ name: commandName(op.operationId), method: method.toUpperCase(), path: path.slice('/admin/v1'.length), summary: op.summary });
    }
  }
  return commands;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const message = err instanceof UsageError || err instanceof ConfigError ? err.message : `failed: ${err instanceof Error ? err.message : String(err)}`;
    process.stderr.write(`${message}\n`);
    process.exit(2);
  },
);
