import type { Redis } from 'ioredis';
import type { DataKeys } from './at-rest/data-keys.js';
import type { BlobStore } from './blobs/store.js';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { JobQueue } from './jobs/queue.js';
import type { Clock } from './lib/clock.js';
import type { Meter } from './metrics/meter.js';
import type { WebhookPlatform } from './webhooks/types.js';
import type { FacePool } from './recognition/faces/pool.js';
import type { DocumentReader } from './recognition/document/reader.js';

/** What the whole process shares; buildApp decorates the root instance with these. */
declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    clock: Clock;
    database: Database;
    db: Db;
    jobs: JobQueue;
    /** The face-inference worker pool; null when FACE_CHECKS=off. */
    faces: FacePool | null;
    /** The OCR of document zones; null when DOCUMENT_READING=off. */
    documents: DocumentReader | null;
    /** The master keys secrets and images are sealed with at rest (docs/operations.md, "Encryption at rest"). */
    dataKeys: DataKeys;
    /** Seals what it stores and opens what it reads (src/at-rest/sealed-blobs.ts). */
    blobs: BlobStore;
    redis: Redis | undefined;
    webhooks: WebhookPlatform;
    /** Where the APIs report their work for the metrics; silent when METRICS_TOKEN is unset. */
    meter: Meter;
  }
}
