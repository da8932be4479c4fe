import { Agent, request } from 'node:https';

/**
 * POST <witness URL>/add-checkpoint over HTTPS with keep-alive (C2SP `tlog-witness`), the answer
 * read up to a small size: a status with its media type and text, or why there was none.
 */

/** A witness answers a size or a few signature lines; more is not read. */
const ANSWER_LIMIT_BYTES = 16 * 1024;

export type WitnessAnswer = { status: number; type: string; text: string } | { error: string };

export interface WitnessClient {
  addCheckpoint(url: string, body: string): Promise<WitnessAnswer>;
  close(): void;
}

export function createWitnessClient(opts: { timeoutMs: number; ca?: string | Buffer | (string | Buffer)[] }): WitnessClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 4, ca: opts.ca });
  return {
    addCheckpoint: (url, body) =>
      new Promise((resolve) => {
        const req = request(
          `${url}/add-checkpoint`,
          {
            method: 'POST',
            agent,
            timeout: opts.timeoutMs,
            headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size <= ANSWER_LIMIT_BYTES) chunks.push(chunk);
            });
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                type: String(res.headers['content-type'] ?? '')
                  .split(';')[0]!
                  .trim(),
                text: size > ANSWER_LIMIT_BYTES ? '' : Buffer.concat(chunks).toString('utf8'),
              }),
            );
            res.on('error', (err) => resolve({ error: err.message }));
          },
        );
        req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
        req.on('error', (err) => resolve({ error: err.message }));
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}
