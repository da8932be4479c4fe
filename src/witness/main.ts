import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { startWitness } from './server.js';

/**
 * `npm run witness -- --key <file> --port <p> --log <log verifier key> [--log …]
 *  [--name <name>] [--host <address>] [--tls-cert <pem> --tls-key <pem>]` (docs/governance.md, "Witnesses").
 */
const USAGE =
  'usage: npm run witness -- --key <file> --port <port> --log <log verifier key> [--log …] [--name <name>] [--host <address>] [--tls-cert <file> --tls-key <file>]';

function fail(message: string): never {
  process.stderr.write(`witness: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      key: { type: 'string' },
      port: { type: 'string' },
      log: { type: 'string', multiple: true },
      name: { type: 'string' },
      host: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
    },
    strict: true,
  }).values;
} catch (err) {
  fail((err as Error).message);
}
if (!args.key) fail('--key is required');
const port = Number(args.port);
if (!args.port || !Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be a port number (0 picks a free one)');
if (!args.log?.length) fail('name at least one log with --log <verifier key> (GET /v1/governance/log/keys lists them)');
if (Boolean(args['tls-cert']) !== Boolean(args['tls-key'])) fail('--tls-cert and --tls-key go together');

try {
  const witness = await startWitness({
    keyFile: args.key,
    name: args.name ?? `${hostname()}/witness`,
    logs: args.log,
    port,
    host: args.host,
    tls: args['tls-cert'] ? { cert: readFileSync(args['tls-cert'], 'utf8'), key: readFileSync(args['tls-key']!, 'utf8') } : undefined,
    log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  });
  process.stdout.write(`witness ${witness.key.verifierKey}\nlistening on ${witness.url} (POST ${witness.url}/add-checkpoint)\n`);
  const stop = () => void witness.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err) {
  fail((err as Error).message);
}
