import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The console entry with everything it loads (chunks and CSS), gzipped, from Vite's manifest. */
export function consoleGzipBytes(dir = 'dist/web'): number {
  return entryGzipBytes('console/index.html', dir);
}

/** The capture page's entry, the same way (it must stay small: phones load it over mobile networks). */
export function captureGzipBytes(dir = 'dist/web'): number {
  return entryGzipBytes('capture/index.html', dir);
}

/** One page of the build with everything it loads (chunks and CSS), gzipped, from Vite's manifest. */
function entryGzipBytes(entry: string, dir = 'dist/web'): number {
  type Chunk = { file: string; css?: string[]; imports?: string[] };
  const manifest = JSON.parse(readFileSync(join(dir, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry);
  files.add(entry);
  let total = 0;
  for (const file of files) total += gzipSync(readFileSync(join(dir, file))).length;
  return total;
}
