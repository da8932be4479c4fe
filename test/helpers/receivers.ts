import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { makeLocalCertificate, type Certificate } from '../../scripts/local-certificate.js';
import { placeholder } from './suite.js';

export type { Certificate };

/** A self-signed certificate for the names test receivers answer on; trusted only through the dispatcher's CA option. */
export function makeCertificate(): Promise<Certificate> {
  return makeLocalCertificate({ commonName: 'localhost', dnsNames: ['localhost', 'hooks.example.test'], ips: ['127.0.0.1'], days: 1 });
}

export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body exactly as it arrived. */
  body: string;
}

/**
 * What the receiver answers: a status code (with the body `ok`), 'hang' to never answer, or a
 * status with a body of its own; `open: true` sends that body and then neither ends nor closes.
 */
export type Answer = number | 'hang' | { status: number; body: string | Buffer; open?: boolean };

export interface Receiver {
  url(path?: string): string;
  port: number;
  received: Received[];
  /** Answers to give, in order, before falling back to `fallback`. */
  plan(...answers: Answer[]): void;
  fallback: Answer;
  /** TLS connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  readonly connections: number;
  /** Closes the connections that carry no request, as a server ending keep-alive does. */
  closeIdle(): void;
  close(): Promise<void>;
}

export async function startReceiver(certificate: Certificate, host = '127.0.0.1'): Promise<Receiver> {
  const queue: Answer[] = [];
  const received: Received[] = [];
  const receiver = { fallback: 200 as Answer } as Receiver;
  const server: Server = createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = queue.shift() ?? receiver.fallback;
      if (answer === 'hang') return;
      if (typeof answer === 'object') {
        res.writeHead(answer.status, { 'content-type': 'text/plain; charset=utf-8' });
        if (answer.open) res.write(answer.body);
        else res.end(answer.body);
        return;
      }
      res.writeHead(answer, answer >= 300 && answer < 400 ? { location: 'https://127.0.0.1:1/elsewhere' } : {}).end('ok');
    });
  });
  let connections = 0;
  server.on('secureConnection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  Object.defineProperty(receiver, 'connections', { get: () => connections });
  return Object.assign(receiver, {
    port,
    received,
    url: (path = '/hook') => `https://${host === '127.0.0.1' ? '127.0.0.1' : host}:${port}${path}`,
    plan: (...answers: Answer[]) => void queue.push(...answers),
    closeIdle: () => server.closeIdleConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A certificate for the receivers of one describe block (and the app's `webhooks.ca`), made in a beforeAll. */
export function useCertificate(): Certificate {
  const certificate = placeholder<Certificate>("the receivers' certificate");
  beforeAll(async () => certificate.fill(await makeCertificate()));
  return certificate.value;
}

/** A receiver of one describe block, started in a beforeAll and closed in an afterAll. */
export function useReceiver(certificate: Certificate): Receiver {
  const receiver = placeholder<Receiver>('the receiver');
  beforeAll(async () => receiver.fill(await startReceiver(certificate)));
  afterAll(async () => {
    await receiver.filled()?.close();
  });
  return receiver.value;
}
