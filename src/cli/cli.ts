import {
  buildRequest,
  commandName,
  commandUsage,
  splitGlobalOptions,
  usage,
  UsageError,
  type OperatorCommand,
  type ParsedRequest,
} from './cli-args.js';
import { OPERATOR_COMMANDS } from './cli-commands.js';
import type { OperatorAnswer } from './cli-local.js';

/**
 * The operator API from a shell: every /admin/v1 operation, named after its operationId.
 * `--url http://host:port` calls a running server over HTTP with ADMIN_TOKEN; without it the
 * operation runs in-process against the configured database with the same validation and
 * rules. Only this file and the command table (with the word lists its --help shows) load up
 * front, so `--help` answers at once and touches no database; the app is imported when an
 * operation runs in-process.
 */
const commands: OperatorCommand[] = OPERATOR_COMMANDS.map((c) => ({
  name: commandName(c.operationId),
  method: c.method,
  path: c.path,
  summary: c.description,
  flags: c.flags,
  choices: c.choices,
}));

async function main(argv: string[]): Promise<number> {
  const { url, help, rest } = splitGlobalOptions(argv);
  const [name, ...args] = rest;
  if (!name || name === 'help') {
    process.stdout.write(`${usage(commands)}\n`);
    return name || help ? 0 : 2;
  }
  if (name === 'rotate-data-key') return (await import('./rotate-data-key-cli.js')).runRotateDataKey(args, help, process.env);
  if (name === 'backup' || name === 'restore') return (await import('./backup-cli.js')).runBackupCommand(name, args, help, process.env);
  const command = commands.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command "${name}" (npm run admin -- --help lists them)`);
  if (help) {
    process.stdout.write(`${commandUsage(command)}\n`);
    return 0;
  }
  const request = buildRequest(command, args);
  const answer = url
    ? await overHttp(url, request, process.env)
    : await (await import('./cli-local.js')).runInProcess(request, process.env);
  process.stdout.write(`${typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body, null, 2)}\n`);
  return answer.status < 400 ? 0 : 1;
}

/** What the CLI prints for an image answer (the console shows images). */
const imageSummary = (contentType: string, bytes: number) => ({ image: { contentType, bytes } });

async function overHttp(base: string, request: ParsedRequest, env: NodeJS.ProcessEnv): Promise<OperatorAnswer> {
  const token = env.ADMIN_TOKEN;
  if (!token) throw new UsageError(`--url needs ADMIN_TOKEN set to the operator token of the server at ${base}`);
  let res: Response;
  try {
    res = await fetch(`${base}${request.url}`, {
      method: request.method,
      headers: { authorization: `Bearer ${token}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
      ...(request.body ? { body: JSON.stringify(request.body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new UsageError(`cannot reach ${base}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  const type = res.headers.get('content-type') ?? '';
  // An image is not for a terminal: say what came, so the command's answer stays readable.
  if (type.startsWith('image/')) return { status: res.status, body: imageSummary(type, (await res.arrayBuffer()).byteLength) };
  const text = await res.text();
  if (!text) return { status: res.status, body: { status: res.status } };
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, body: `HTTP ${res.status}: ${text.slice(0, 500)}` };
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const message = err instanceof UsageError ? err.message : `failed: ${err instanceof Error ? err.message : String(err)}`;
    process.stderr.write(`${message}\n`);
    process.exit(2);
  },
);
