/**
 * Run as a child process by document-reader-exit.test.ts: opens the document reader, reads one
 * blank page, closes the reader and then simply ends, leaving the process to exit on its own as a
 * script's does (`npm run documents:read-rate`). Anything the reader leaves open keeps it alive.
 */
import sharp from 'sharp';
import { createDocumentReader } from '../../src/recognition/document/reader.js';

const reader = createDocumentReader();
reader.start();
const page = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } })
  .jpeg()
  .toBuffer();
const { zone } = await reader.read([new Uint8Array(page)]);
await reader.close();
process.stdout.write(`closed, zone ${zone === null ? 'none' : 'read'}\n`);
