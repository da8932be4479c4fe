/**
 * A local HTTPS webhook receiver for trying webhooks offline (docs/webhooks.md, "Receiving webhooks").
 *
 *   npm run webhook-receiver -- [--port 4000] [--dir <dir>] [--secret whsec_…] [--jwks <url> | --public-key <base64>]
 *                               [--status 200] [--tolerance 300]
 *
 * It makes a throwaway self-signed certificate for localhost/127.0.0.1/::1 and writes it to
 * <dir>/ca.pem so the server can trust it (NODE_EXTRA_CA_CERTS). <dir> is --dir (kept, and its
 * certificate reused on restart), or else a fresh directory of this run's own under $TMPDIR
 * (mode 0700, deleted when the receiver stops): never one fixed path that another local user
 * could have made first and put a certificate or secret of theirs in (docs/webhooks.md). It
 * prints the directory, verifies each delivery and prints it:
 * - `Service-Signature` (ticketing endpoints): HMAC-SHA256 with the endpoint secret: --secret,
 *   WEBHOOK_SECRET, or the file <dir>/secret, read at each delivery so the secret shown at
 *   registration can be saved there while the receiver runs (comma-separate several secrets);
 * - Standard Webhooks `webhook-signature: v1a,…` (identity decisions): Ed25519 over
 *   "<webhook-id>.<webhook-timestamp>.<body>", with the server's identity-webhook keys from its
 *   JWKS (--jwks, default http://localhost:3000/v1/.well-known/jwks.json) or --public-key.
 * A verified delivery is answered --status (default 200); a bad or missing signature 400.
 */
import { createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { verifyServiceSignature } from '../src/webhooks/verify.js';
import { makeLocalCertificate } from './local-certificate.js';

interface Options {
  port: number;
  host: string;
  secrets: string[];
  jwks: string;
  publicKey?: string;
  /** --dir; unset: a fresh directory of this run's own. */
  dir?: string;
  status: number;
  toleranceSec: number;
}

function usageExit(message: string): never {
  process.stderr.write(`webhook-receiver: ${message}\n`);
  process.exit(2);
}

function readOptions(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        secret: { type: 'string' },
        jwks: { type: 'string' },
        'public-key': { type: 'string' },
        dir: { type: 'string' },
        status: { type: 'string' },
        tolerance: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    usageExit((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${readHelp()}\n`);
    process.exit(0);
  }
  const int = (raw: string | undefined, fallback: number, name: string, min: number, max: number) => {
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) usageExit(`--${name} must be an integer from ${min} to ${max}`);
    return n;
  };
  const publicKey = values['public-key'] ?? process.env.IDENTITY_WEBHOOK_PUBLIC_KEY;
  if (publicKey !== undefined && Buffer.from(publicKey, 'base64').length !== 32)
    usageExit('--public-key must be base64 of the raw 32-byte Ed25519 key');
  return {
    port: int(values.port ?? process.env.WEBHOOK_RECEIVER_PORT, 4000, 'port', 0, 65535),
    host: values.host ?? '127.0.0.1',
    secrets: (values.secret ?? process.env.WEBHOOK_SECRET ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    jwks: values.jwks ?? process.env.IDENTITY_JWKS_URL ?? 'http://localhost:3000/v1/.well-known/jwks.json',
    ...(publicKey ? { publicKey } : {}),
    ...(values.dir ? { dir: resolve(values.dir) } : {}),
    status: int(values.status, 200, 'status', 200, 599),
    toleranceSec: int(values.tolerance, 300, 'tolerance', 1, 10 * 365 * 24 * 3600),
  };
}

function readHelp(): string {
  return [
    'usage: npm run webhook-receiver -- [--port 4000] [--dir <dir>] [--secret whsec_…] [--jwks <url> | --public-key <base64>] [--status 200] [--tolerance 300]',
    'An HTTPS receiver with a throwaway certificate that verifies and prints every delivery.',
    '  --dir          where ca.pem (for NODE_EXTRA_CA_CERTS), its key and the file `secret` live, kept for the next run',
    '                 (default: a fresh directory under $TMPDIR for this run alone, printed at start, deleted at stop)',
    '  --secret       endpoint signing secret(s) for Service-Signature (or WEBHOOK_SECRET, or write it to <dir>/secret)',
    '  --jwks         where the identity-webhook keys are (default http://localhost:3000/v1/.well-known/jwks.json)',
    '  --public-key   an identity-webhook public key instead (base64 of the raw 32 bytes)',
    '  --status       what to answer a verified delivery (default 200; try 500 to watch the retries)',
  ].join('\n');
}

function makeCertificate() {
  return makeLocalCertificate({ commonName: 'webhook-receiver localhost', dnsNames: ['localhost'], ips: ['127.0.0.1', '::1'], days: 7 });
}

function ed25519Key(rawBase64url: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: rawBase64url }, format: 'jwk' });
}

/** The identity-webhook verification keys: the given one, or the server's JWKS (reloaded when none matches). */
function identityKeys(options: Options) {
  let cached: KeyObject[] | undefined = options.publicKey
    ? [ed25519Key(Buffer.from(options.publicKey, 'base64').toString('base64url'))]
    : undefined;
  return async (reload: boolean): Promise<KeyObject[]> => {
    if (options.publicKey) return cached!;
    if (cached && !reload) return cached;
    const res = await fetch(options.jwks, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`${options.jwks} answered ${res.status}`);
    const { keys } = (await res.json()) as { keys: { kty: string; crv: string; x: string; purpose?: string }[] };
    cached = keys
      .filter((k) => k.kty === 'OKP' && k.crv === 'Ed25519' && (k.purpose ?? 'identity-webhook') === 'identity-webhook')
      .map((k) => ed25519Key(k.x));
    return cached;
  };
}

type Verdict = { ok: true; scheme: string } | { ok: false; reason: string };

async function verifyDelivery(
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
  options: Options & { dir: string },
  keys: ReturnType<typeof identityKeys>,
): Promise<Verdict> {
  const header = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const serviceSignature = header('service-signature');
  if (serviceSignature !== undefined) {
    const secrets = [...options.secrets, ...secretsInFile(options.dir)];
    if (secrets.length === 0)
      return { ok: false, reason: `Service-Signature present but no secret: save the endpoint secret to ${join(options.dir, 'secret')}` };
    const result = verifyServiceSignature(body, serviceSignature, secrets, { toleranceSec: options.toleranceSec });
    return result.ok
      ? { ok: true, scheme: 'Service-Signature (HMAC-SHA256)' }
      : { ok: false, reason: `Service-Signature: ${result.reason}` };
  }
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signature = header('webhook-signature');
  if (id === undefined || timestamp === undefined || signature === undefined)
    return { ok: false, reason: 'no Service-Signature and no webhook-id/webhook-timestamp/webhook-signature headers' };
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > options.toleranceSec)
    return { ok: false, reason: 'webhook-timestamp outside the tolerance' };
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]);
  const candidates = signature
    .split(' ')
    .filter((s) => s.startsWith('v1a,'))
    .map((s) => Buffer.from(s.slice(4), 'base64'));
  if (candidates.length === 0) return { ok: false, reason: 'webhook-signature has no v1a (Ed25519) signature' };
  for (const reload of [false, true]) {
    let list: KeyObject[];
    try {
      list = await keys(reload);
    } catch (err) {
      return { ok: false, reason: `cannot load the identity-webhook keys: ${(err as Error).message} (give --public-key or --jwks)` };
    }
    if (list.some((key) => candidates.some((sig) => sig.length === 64 && verifySignature(null, signed, key, sig))))
      return { ok: true, scheme: 'Standard Webhooks (Ed25519)' };
  }
  return { ok: false, reason: 'webhook-signature does not verify with the identity-webhook keys' };
}

function secretsInFile(dir: string): string[] {
  try {
    return readFileSync(join(dir, 'secret'), 'utf8')
      .split(/[,\s]+/)
      .filter(Boolean);
  } catch {
    return [];
  }
}

/** The certificate of an earlier run when there is one, so a server that trusts it keeps doing so. */
async function certificateIn(dir: string): Promise<{ key: string; cert: string }> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const certFile = join(dir, 'ca.pem');
  const keyFile = join(dir, 'key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  const created = await makeCertificate();
  writeFileSync(keyFile, created.key, { mode: 0o600 });
  writeFileSync(certFile, created.cert);
  return created;
}

async function main() {
  const options = readOptions(process.argv.slice(2));
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'webhook-receiver-'));
  const certificate = await certificateIn(dir);
  const caFile = join(dir, 'ca.pem');
  const keys = identityKeys(options);
  let count = 0;
  const server = createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      void verifyDelivery(req.headers, body, { ...options, dir }, keys).then((verdict) => {
        count++;
        const at = new Date().toISOString();
        let shown: string;
        try {
          shown = JSON.stringify(JSON.parse(body.toString('utf8')), null, 2);
        } catch {
          shown = body.toString('utf8').slice(0, 2000);
        }
        const meta = ['service-event-id', 'service-delivery-attempt', 'webhook-id']
          .filter((h) => req.headers[h])
          .map((h) => `${h}: ${String(req.headers[h])}`)
          .join('  ');
        if (verdict.ok) {
          process.stdout.write(`\n#${count} ${at} ${req.method} ${req.url}  VERIFIED ${verdict.scheme}  ${meta}\n${shown}\n`);
          res.writeHead(options.status, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true }));
        } else {
          process.stdout.write(`\n#${count} ${at} ${req.method} ${req.url}  REJECTED ${verdict.reason}  ${meta}\n${shown}\n`);
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: verdict.reason }));
        }
      });
    });
  });
  server.listen(options.port, options.host, () => {
    const { port } = server.address() as AddressInfo;
    const host = options.host === '127.0.0.1' || options.host === '0.0.0.0' ? 'localhost' : options.host;
    process.stdout.write(
      [
        `webhook receiver listening on https://${host}:${port}/ (its certificate: ${caFile})`,
        ownDir
          ? `its files are in a directory of this run's own, deleted when it stops; in the walkthrough's other terminals:`
          : `its files are in --dir, kept for the next run; in the walkthrough's other terminals:`,
        `  export RECEIVER=${dir}`,
        `start the server so it trusts this receiver and may call a local address, with the operator API on`,
        `(ADMIN_TOKEN: any 16+ characters; docs/walkthrough.md uses this one):`,
        `  NODE_EXTRA_CA_CERTS=${caFile} WEBHOOK_ALLOW_PRIVATE_NETWORKS=true ADMIN_TOKEN=local-operator-token-123 npm start`,
        `verifying Service-Signature with ${options.secrets.length ? '--secret and ' : ''}the secret(s) in ${join(dir, 'secret')} (read at each delivery)`,
        options.publicKey
          ? 'verifying Standard Webhooks signatures with --public-key'
          : `verifying Standard Webhooks signatures with the keys at ${options.jwks}`,
      ].join('\n') + '\n',
    );
  });
  const stop = () => {
    if (ownDir) rmSync(dir, { recursive: true, force: true });
    server.close(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
