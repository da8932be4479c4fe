import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { createS3BlobStore, type S3Settings } from '../../src/blobs/s3.js';

/** s3rver checks signatures against these fixed keys. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The app's environment for this bucket (the credentials come from the AWS variables, see useS3rverCredentials). */
  env: Record<string, string>;
  settings: S3Settings;
  /** The keys in the bucket under `prefix`. */
  keys(prefix?: string): Promise<string[]>;
  /** Takes the server down, open connections included, as a bucket outage would. */
  stop(): Promise<void>;
  /** Brings it back on the same port with the same data. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** An S3 server of our own for one test file: a random port, a temporary directory, one bucket. */
export async function startS3rver(bucket = 'partner-blobs'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  let port = 0;
  let server: S3rver | undefined;
  let http: Server | undefined;
  const start = async () => {
    server = new S3rver({ address: '127.0.0.1', port, directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
    const address = (await server.run()) as AddressInfo;
    port = address.port;
    http = (server as unknown as { httpServer: Server }).httpServer;
  };
  const stop = async () => {
    const closing = server?.close();
    http?.closeAllConnections();
    await closing;
    server = undefined;
  };
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3Settings = { bucket, region: 'us-east-1', endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS };
  const lister = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  return {
    endpoint,
    bucket,
    settings,
    env: { BLOB_STORE: 's3', S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_ENDPOINT: endpoint, S3_FORCE_PATH_STYLE: 'true' },
    async keys(prefix) {
      const listed = await lister.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (listed.Contents ?? []).map((o) => o.Key!).sort();
    },
    stop,
    start,
    async close() {
      lister.destroy();
      if (server) await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A store on the local server that gives up at once when it is down (the SDK's retries would only slow the tests). */
export function s3StoreOn(s3: LocalS3) {
  return createS3BlobStore({ ...s3.settings, maxAttempts: 1 });
}

/**
 * The app finds its credentials where a deployment keeps them, in the AWS variables; this test
 * file's process sets s3rver's. Returns the restore function.
 */
export function useS3rverCredentials(): () => void {
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
  return () => {
    for (const [name, value] of [
      ['AWS_ACCESS_KEY_ID', saved.id],
      ['AWS_SECRET_ACCESS_KEY', saved.secret],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
