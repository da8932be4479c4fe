import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../lib/clock.js';
import { cosign, NOTE_ED25519, parseNoteKey, type NoteKey } from '../lib/signed-note.js';
import { readAddCheckpoint, SIZE_MEDIA_TYPE } from '../governance/witness/protocol.js';
import { loadOrCreateWitnessKey, type WitnessKey } from './key-file.js';
import { judge } from './rules.js';
import { openWitnessState } from './state.js';

/**
 * The project's own witness (docs/governance.md, "Witnesses"): C2SP `tlog-witness` add-checkpoint over HTTP
 * or HTTPS, cosigning with C2SP `tlog-cosignature` (Ed25519) each checkpoint of a trusted log that
 * extends the last one it cosigned for that origin. `npm run witness` runs it (src/witness/main.ts);
 * tests start it in-process.
 */

/** A request body larger than this is refused: 63 proof lines and a note with a few signatures fit many times. */
const MAX_BODY_BYTES = 64 * 1024;

export interface WitnessOptions {
  keyFile: string;
  /** The witness's name when its key file is made now (kept in the file afterwards). */
  name?: string;
  /** The note verifier keys of the logs it witnesses; each names its origin. */
  logs: string[];
  port: number;
  host?: string;
  /** Serve HTTPS with this certificate (PEM); plain HTTP without (behind a TLS proxy). */
  tls?: { cert: string; key: string };
  clock?: Clock;
  /** One line per answered request (stdout in main.ts). */
  log?: (line: string) => void;
}

export interface RunningWitness {
  key: WitnessKey;
  /** The submission prefix: POST <url>/add-checkpoint. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The trusted log keys by origin; throws a message naming the key that is not one. */
export function logKeysByOrigin(vkeys: string[]): Map<string, NoteKey[]> {
  const logs = new Map<string, NoteKey[]>();
  for (const vkey of vkeys) {
    let key: NoteKey;
    try {
      key = parseNoteKey(vkey, NOTE_ED25519);
    } catch (err) {
      throw new Error(`--log ${vkey}: ${(err as Error).message}`);
    }
    logs.set(key.name, [...(logs.get(key.name) ?? []), key]);
  }
  return logs;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startWitness(opts: WitnessOptions): Promise<RunningWitness> {
  const logs = logKeysByOrigin(opts.logs);
  const { key } = await loadOrCreateWitnessKey(opts.keyFile, opts.name ?? 'localhost/witness');
  const state = await openWitnessState(`${opts.keyFile}.state.json`);
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? (() => {});
  // One request at a time: checking the old size and persisting the new checkpoint are atomic.
  let turn: Promise<unknown> = Promise.resolve();

  async function addCheckpoint(text: string): Promise<{ status: number; type: string; body: string }> {
    const request = readAddCheckpoint(text);
    if (typeof request === 'string') return { status: 400, type: 'text/plain', body: `${request}\n` };
    const verdict = judge(request, logs, (origin) => state.get(origin));
    if (verdict.status === 200) {
      await state.set(verdict.origin, verdict.accept);
      log(`cosigned ${verdict.origin} at size ${verdict.accept.size} (old ${request.oldSize})`);
      const timestamp = Math.floor(clock.now().getTime() / 1000);
      return { status: 200, type: 'text/plain', body: cosign(verdict.body, timestamp, key) };
    }
    log(`refused ${verdict.status}: ${verdict.reason}`);
    if (verdict.status === 409) return { status: 409, type: SIZE_MEDIA_TYPE, body: `${verdict.size}\n` };
    return { status: verdict.status, type: 'text/plain', body: `${verdict.reason}\n` };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const answer = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
    };
    const path = new URL(req.url ?? '/', 'http://witness').pathname;
    if (path !== '/add-checkpoint') return answer(404, 'text/plain', 'not found: POST /add-checkpoint\n');
    if (req.method !== 'POST') return answer(405, 'text/plain', 'add-checkpoint takes POST\n');
    const text = await readBody(req);
    if (text === null) return answer(413, 'text/plain', `the body is larger than ${MAX_BODY_BYTES} bytes\n`);
    const result = turn.then(() => addCheckpoint(text));
    turn = result.catch(() => {});
    const { status, type, body } = await result;
    answer(status, type, body);
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => {
      log(`error: ${(err as Error).message}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error\n');
    });
  };
  const server: Server = opts.tls ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, listener) : createHttpServer(listener);
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    key,
    port,
    url: `${opts.tls ? 'https' : 'http'}://${shown}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
