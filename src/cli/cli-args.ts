/** Pure parsing of `npm run admin -- <command> [--flag value …]` into a request, kept away from I/O. */

export interface OperatorCommand {
  name: string;
  method: string;
  /** Path template under /admin/v1, with `{param}` placeholders. */
  path: string;
  summary?: string;
  /** `name!` required, `name[]` a list (see cli-commands.ts). */
  flags?: string[];
  /** Allowed values by flag name, shown by `<command> --help`. */
  choices?: Record<string, Choices>;
}

/** A flag's allowed values: one list, or lists by what they go with (a key's scopes by its service). */
export type Choices = readonly string[] | Readonly<Record<string, readonly string[]>>;

function choicesText(choices: Choices, list: boolean): string {
  const lead = list ? 'any of' : 'one of';
  if (isList(choices)) return `${lead}: ${choices.join(', ')}`;
  return `${lead}, ${Object.entries(choices)
    .map(([group, values]) => `for ${group}: ${values.join(', ')}`)
    .join('; ')}`;
}

const isList = (choices: Choices): choices is readonly string[] => Array.isArray(choices);

interface FlagSpec {
  name: string;
  required: boolean;
  list: boolean;
}

export function flagSpec(flag: string): FlagSpec {
  const required = flag.endsWith('!');
  const bare = required ? flag.slice(0, -1) : flag;
  const list = bare.endsWith('[]');
  return { name: list ? bare.slice(0, -2) : bare, required, list };
}

/**
 * The global options: `--url <server>` before the command (after it, `--url` is a body field,
 * as on create-webhook-endpoint) and `--help` anywhere; the rest is left in order.
 */
export function splitGlobalOptions(argv: string[]): { url?: string; help: boolean; rest: string[] } {
  const rest: string[] = [];
  let url: string | undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const beforeCommand = rest.length === 0;
    if (beforeCommand && arg === '--url') {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--'))
        throw new UsageError('--url needs the server address, e.g. --url http://localhost:3000');
      url = next;
      i++;
    } else if (beforeCommand && arg.startsWith('--url=')) url = arg.slice('--url='.length);
    else if (arg === '--help' || arg === '-h') help = true;
    else if (beforeCommand && arg.startsWith('-'))
      throw new UsageError(`unknown option ${arg} before the command (npm run admin -- --help lists the commands)`);
    else rest.push(arg);
  }
  if (url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`--url ${url} is not a URL (e.g. --url http://localhost:3000)`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--url ${url} must be http:// or https://`);
    url = parsed.origin + parsed.pathname.replace(/\/+$/, '');
  }
  return { ...(url !== undefined ? { url } : {}), help, rest };
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
  for (const spec of (command.flags ?? []).map(flagSpec)) {
    if (spec.list && spec.name in flags) flags[spec.name] = asList(flags[spec.name]);
  }
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

/** A list flag's value: a JSON array as given; `a,b` split on commas; one value a list of one. */
function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === 'string' ? splitCommas(v) : [v]));
  if (typeof value === 'string') return splitCommas(value);
  return [value];
}

function splitCommas(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export function usage(commands: OperatorCommand[]): string {
  // Names and summaries stay two spaces apart however long the longest name grows.
  const width = Math.max(30, ...commands.map((c) => c.name.length + 1));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)} ${c.summary ?? ''}`).sort();
  return [
    'usage: npm run admin -- [--url http://host:port] <command> [--flag value …]',
    '',
    'Runs an operator API (/admin/v1) operation and prints the answer as JSON; exits 1 on an error answer, 2 on a usage error.',
    'With --url it calls that server over HTTP with ADMIN_TOKEN (use this while a server runs on the embedded database);',
    'without it, it opens the configured database itself (DATABASE_URL, or the embedded one in DATA_DIR).',
    'Flags: path parameters and body fields; values that read as JSON are JSON; --a.b sets a nested field;',
    "lists take --scopes a,b, a JSON array or the flag repeated; --json '{...}' gives the whole body.",
    "`npm run admin -- <command> --help` shows a command's flags.",
    '',
    'commands:',
    ...lines,
    '',
    'backups of the embedded database (DATA_DIR; the server must be stopped; docs/operations.md, "Backup and restore"):',
    `  ${'backup <file>'.padEnd(width)} Writes the embedded database and the file blob store to <file> (a new .tar.gz)`,
    `  ${'restore <file>'.padEnd(width)} Restores <file> into DATA_DIR, which must be new or empty`,
    '',
    'encryption at rest (docs/operations.md, "Encryption at rest"):',
    `  ${'rotate-data-key'.padEnd(width)} Rewraps every data key under DATA_KEY (the new master key), opening them with DATA_KEY_PREVIOUS`,
  ].join('\n');
}

export function commandUsage(command: OperatorCommand): string {
  const flags = (command.flags ?? []).map(flagSpec);
  const shown = flags.map((f) => {
    const choices = command.choices?.[f.name];
    const line = `  ${`--${f.name}${f.list ? ' a,b,…' : ''}`.padEnd(28)} ${f.required ? 'required' : 'optional'}`;
    return choices ? `${line}  ${choicesText(choices, f.list)}` : line;
  });
  return [
    `usage: npm run admin -- [--url http://host:port] ${command.name}${flags
      .filter((f) => f.required)
      .map((f) => ` --${f.name} …`)
      .join('')}`,
    '',
    command.summary ?? '',
    `${command.method} /admin/v1${command.path}`,
    ...(shown.length ? ['', 'flags:', ...shown] : []),
  ].join('\n');
}
