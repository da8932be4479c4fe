import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { Lexer, type Token, type Tokens } from 'marked';

/**
 * What a reader of a markdown file would trip over, found by rendering it as GitHub does (GFM,
 * through marked's lexer): a table row that renders as a paragraph of pipes (a table cut by a
 * paragraph or a blank line), a table whose rows have another number of cells than its header,
 * and a link or image to a file of the repository that does not exist, or to a heading that is
 * not there.
 */
export interface Problem {
  file: string;
  line: number;
  problem: string;
}

/** The cells of a table row as GFM splits them: on every pipe not escaped with a backslash. */
export function cellsOf(row: string): number {
  let text = row.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  let cells = 1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '|') cells++;
  }
  return cells;
}

/** The plain text of inline tokens, as GitHub makes heading anchors from it. */
function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((t) => ('tokens' in t && t.tokens ? plainText(t.tokens) : t.type === 'codespan' || t.type === 'text' ? t.text : (t.raw ?? '')))
    .join('');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor the headings of a markdown text make, a repeated heading numbered as GitHub does. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const token of new Lexer({ gfm: true }).lex(markdown)) {
    if (token.type !== 'heading') continue;
    const slug = slugOf(plainText((token as Tokens.Heading).tokens));
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** Every token with its children, depth first. */
function* allTokens(tokens: Token[]): Generator<Token> {
  for (const token of tokens) {
    yield token;
    if (token.type === 'table') {
      const table = token as Tokens.Table;
      for (const cell of [...table.header, ...table.rows.flat()]) yield* allTokens(cell.tokens);
    }
    if (token.type === 'list') for (const item of (token as Tokens.List).items) yield* allTokens(item.tokens);
    if ('tokens' in token && token.tokens) yield* allTokens(token.tokens);
  }
}

/**
 * The problems of one markdown text. `file` is its path in the repository at `root`: relative
 * links resolve from its folder and must stay inside the repository.
 */
export function checkMarkdown(markdown: string, file: string, root: string): Problem[] {
  const problems: Problem[] = [];
  const anchorsIn = new Map<string, Set<string>>();
  const anchorsOfFile = (path: string, text: () => string) => {
    if (!anchorsIn.has(path)) anchorsIn.set(path, anchorsOf(text()));
    return anchorsIn.get(path)!;
  };
  const lineOf = (raw: string) => markdown.slice(0, Math.max(0, markdown.indexOf(raw))).split('\n').length;
  const tokens = new Lexer({ gfm: true }).lex(markdown);
  for (const token of tokens) {
    if (token.type === 'table') {
      const rows = token.raw.split('\n').filter((l) => l.trim() !== '');
      const width = cellsOf(rows[0]!);
      for (const [i, row] of rows.entries()) {
        if (cellsOf(row) !== width) {
          problems.push({
            file,
            line: lineOf(token.raw) + i,
            problem: `table row with ${cellsOf(row)} cells under a header of ${width}: ${row.slice(0, 80)}`,
          });
        }
      }
    }
    if (token.type === 'paragraph') {
      // Rows cut off from their table (by a paragraph or a blank line): GitHub shows them as
      // text, pipes and all, joined to whatever paragraph comes before them.
      const lines = token.raw.split('\n');
      const at = lines.findIndex((l) => /^\s*\|.*\|\s*$/.test(l));
      if (at >= 0) {
        problems.push({
          file,
          line: lineOf(token.raw) + at,
          problem: `table rows rendered as a paragraph of pipes: ${lines[at]!.slice(0, 80)}`,
        });
      }
    }
  }
  for (const token of allTokens(tokens)) {
    if (token.type !== 'link' && token.type !== 'image') continue;
    const href = (token as Tokens.Link | Tokens.Image).href;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // https:, mailto: … : not the repository's
    const [path, anchor] = href.split('#') as [string, string | undefined];
    const line = lineOf(token.raw);
    if (path === '') {
      if (anchor !== undefined && !anchorsOfFile(file, () => markdown).has(anchor)) {
        problems.push({ file, line, problem: `link to a heading that ${file} does not have: ${href}` });
      }
      continue;
    }
    const target = resolve(root, dirname(file), decodeURI(path));
    const where = relative(root, target);
    if (where.startsWith('..')) {
      problems.push({ file, line, problem: `link outside the repository: ${href}` });
    } else if (!existsSync(target)) {
      problems.push({ file, line, problem: `link to a file that does not exist: ${href}` });
    } else if (anchor !== undefined && target.endsWith('.md') && statSync(target).isFile()) {
      if (!anchorsOfFile(where, () => readFileSync(target, 'utf8')).has(anchor)) {
        problems.push({ file, line, problem: `link to a heading that ${where} does not have: ${href}` });
      }
    }
  }
  return problems;
}
