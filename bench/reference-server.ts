// The reference routes the server is measured against, in a process of their own:
// A: a bare Fastify hello-world; B: one prepared SELECT by primary key through a pg pool
// (PGlite when no DATABASE_URL); and a bare multipart-to-disk upload route.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import Fastify from 'fastify';
import multipart from '@fastify/multipart';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

const BY_ID = 'select * from ticketing_events where id = $1';

async function openQuery(): Promise<{ byId(id: string): Promise<unknown>; close(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    return {
      byId: async (id) => (await pool.query({ name: 'event-by-id', text: BY_ID, values: [id] })).rows[0],
      close: () => pool.end(),
    };
  }
  const db = await PGlite.create({ dataDir: join(process.env.DATA_DIR!, 'pglite') });
  return { byId: async (id) => (await db.query(BY_ID, [id])).rows[0], close: () => db.close() };
}

const uploads = mkdtempSync(join(tmpdir(), 'bench-uploads-'));
const query = await openQuery();
const app = Fastify({ logger: false });
await app.register(multipart, { limits: { fileSize: 16 * 1024 * 1024, files: 1 } });

app.get('/hello', async () => ({ hello: 'world' }));
app.get('/events/:id', async (req, reply) => {
  const row = await query.byId((req.params as { id: string }).id);
  return row ?? reply.code(404).send({ error: 'not found' });
});
app.post('/upload', async (req, reply) => {
  const file = await req.file();
  if (!file) return reply.code(400).send({ error: 'no file' });
  const path = join(uploads, randomUUID());
  await pipeline(file.file, createWriteStream(path));
  rmSync(path, { force: true });
  return reply.code(201).send({ stored: true });
});

const shutdown = async () => {
  await app.close();
  await query.close();
  rmSync(uploads, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
