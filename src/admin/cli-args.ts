/** Pure parsing of `npm run admin -- <command> [--flag value …]` into a request, kept away from I/O. */

export interface OperatorCommand {
  name: string;
  method: string;
  /** Path template under /admin/v1, with `{param}` placeholders. */
  path: string;
  summary?: string;
}

export interface ParsedRequest {
  method: string;
  url: string;
  body?: Record<string, unknown>;
}

export class UsageError extends Error {}

export function commandName(operationId: string): string {
  return operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** A flag value as JSON when it reads as JSON (numbers, booleans, arrays, objects), else the plain string. */
function flagValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown) {
  const parts = dotted.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  const last = parts[parts.length - 1]!;
  if (last in node) {
    // A repeated flag builds a list: --scopes events:read --scopes orders:read
    const prior = node[last];
    node[last] = Array.isArray(prior) ? [...prior, value] : [prior, value];
  } else {
    node[last] = value;
  }
}

export function parseFlags(argv: string[]): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--') || arg.length < 3) throw new UsageError(`expected a --flag, got "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    let raw: string;
    if (eq > 0) raw = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) raw = 'true';
      else {
        raw = next;
        i++;
      }
    }
    if (name === 'json') {
      const parsed = flagValue(raw);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--json takes a JSON object');
      Object.assign(flags, parsed);
    } else {
      setPath(flags, name, flagValue(raw));
    }
  }
  return flags;
}

/** Fills the path's parameters from the flags; the rest is the body (or the query of a GET). */
export function buildRequest(command: OperatorCommand, argv: string[]): ParsedRequest {
  const flags = parseFlags(argv);
  const url = command.path.replace(/\{(\w+)\}/g, (_, param: string) => {
    const value = flags[param];
    if (value === undefined) throw new UsageError(`${command.name} needs --${param}`);
    delete flags[param];
    return encodeURIComponent(String(value));
  });
  if (command.method === 'GET' || command.method === 'DELETE') {
    const query = new URLSearchParams(Object.entries(flags).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return { method: command.method, url: `/admin/v1${url}${query ? `?${query}` : ''}` };
  }
  return { method: command.method, url: `/admin/v1${url}`, body: flags };
}

export function usage(commands: OperatorCommand[]): string {
  const lines = commands
    .map((c) => `  ${c.name.padEnd(32)} ${c.method.padEnd(6)} /admin/v1${c.path}${c.summary ? `  ${c.summary}` : ''}`)
    .sort();
  return [
    'usage: npm run admin -- <command> [--param value] [--field value | --json \'{...}\']',
    'Path parameters and body fields are flags; values that read as JSON are JSON; --a.b sets a nested field;',
    'a repeated flag makes a list. Prints the answer as JSON; exits 1 on an error answer.',
    '',
    'commands:',
    ...lines,
  ].join('\n');
}
