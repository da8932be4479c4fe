import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, cellsOf, checkMarkdown } from './markdown-check.js';

const root = join(import.meta.dirname, '../..');
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('the README and docs/*.md render as GitHub shows them', () => {
  it.each(documents)('%s: no broken table, no link to a missing file or heading', (file) => {
    expect(checkMarkdown(readFileSync(join(root, file), 'utf8'), file, root)).toEqual([]);
  });

  it('the README links the benchmark tables it moved to docs/', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('](docs/benchmarks.md');
    expect(readme).not.toMatch(/^### Transparency log \(`bench/m);
  });
});

describe('the markdown check', () => {
  const check = (markdown: string) => checkMarkdown(markdown, 'README.md', root).map((p) => p.problem);

  it('finds rows cut off from their table by a paragraph, which render as a paragraph of pipes', () => {
    const cut = '| a | b |\n|---|---|\n| 1 | 2 |\n\nA note in between.\n| 3 | 4 |\n| 5 | 6 |\n';
    expect(check(cut)).toEqual(['table rows rendered as a paragraph of pipes: | 3 | 4 |']);
    expect(check('| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nA note after.\n')).toEqual([]);
  });

  it('finds a row with another number of cells than its header, counting escaped pipes as text', () => {
    expect(check('| a | b |\n|---|---|\n| 1 | 2 | 3 |\n')).toEqual(['table row with 3 cells under a header of 2: | 1 | 2 | 3 |']);
    expect(check('| a | b |\n|---|---|\n| `x \\| y` | 2 |\n')).toEqual([]);
    expect(cellsOf('| `a` | b \\| c | d |')).toBe(3);
  });

  it('finds links to files and headings that do not exist, and leaves web links alone', () => {
    expect(check('[ok](docs/benchmarks.md) [web](https://example.com/x) [here](#the-markdown-check)\n\n## The markdown check\n')).toEqual(
      [],
    );
    expect(check('[gone](docs/no-such-file.md)')).toEqual(['link to a file that does not exist: docs/no-such-file.md']);
    expect(check('![gone](docs/no-such.png)')).toEqual(['link to a file that does not exist: docs/no-such.png']);
    expect(check('[up](../outside.md)')).toEqual(['link outside the repository: ../outside.md']);
    expect(check('[anchor](#no-such-heading)\n\n## Another heading\n')).toEqual([
      'link to a heading that README.md does not have: #no-such-heading',
    ]);
  });

  it('makes heading anchors as GitHub does: code spans and punctuation dropped, repeats numbered', () => {
    const anchors = anchorsOf(
      '## Idempotency-Key: retries that do not repeat\n\n## Transparency log (`bench/x.ts`)\n\n## Notes\n\n## Notes\n',
    );
    expect([...anchors]).toEqual(['idempotency-key-retries-that-do-not-repeat', 'transparency-log-benchxts', 'notes', 'notes-1']);
  });
});
