/**
 * A strict reading of JSON text for values that will be canonicalized (RFC 8785) and signed.
 * JSON.parse silently keeps the last of duplicate keys, accepts lone surrogates and rounds
 * big integers, so two parsers can read one signed text differently. This scanner refuses
 * those inputs on the raw text before JSON.parse builds the value.
 * (The canonical form itself is written by src/lib/canonical-json.ts.)
 */
export class StrictJsonError extends Error {}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MAX_DEPTH = 64;

export function parseStrictJson(text: string): unknown {
  new Scanner(text).document();
  return JSON.parse(text);
}

class Scanner {
  private i = 0;

  constructor(private readonly text: string) {}

  document(): void {
    this.ws();
    this.value('$', 0);
    this.ws();
    if (this.i !== this.text.length) this.fail('unexpected text after the JSON value');
  }

  private fail(message: string): never {
    throw new StrictJsonError(`${message} (at character ${this.i})`);
  }

  private ws(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++;
  }

  private value(path: string, depth: number): void {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    const c = this.text[this.i];
    if (c === '{') return this.object(path, depth);
    if (c === '[') return this.array(path, depth);
    if (c === '"') {
      this.string(path);
      return;
    }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number(path);
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    this.fail('invalid JSON');
  }

  private object(path: string, depth: number): void {
    this.i++;
    const keys = new Set<string>();
    this.ws();
    if (this.text[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      if (this.text[this.i] !== '"') this.fail('expected a string key');
      const key = this.string(path);
      if (keys.has(key)) this.fail(`duplicate key "${key}" in ${path}`);
      keys.add(key);
      this.ws();
      if (this.text[this.i] !== ':') this.fail('expected ":"');
      this.i++;
      this.ws();
      this.value(`${path}.${key}`, depth + 1);
      this.ws();
      const c = this.text[this.i++];
      if (c === '}') return;
      if (c !== ',') this.fail('expected "," or "}"');
    }
  }

  private array(path: string, depth: number): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === ']') {
      this.i++;
      return;
    }
    for (let n = 0; ; n++) {
      this.ws();
      this.value(`${path}[${n}]`, depth + 1);
      this.ws();
      const c = this.text[this.i++];
      if (c === ']') return;
      if (c !== ',') this.fail('expected "," or "]"');
    }
  }

  /** Reads a string literal and returns its decoded value, refusing lone surrogates. */
  private string(path: string): string {
    const start = this.i;
    this.i++;
    const units: number[] = [];
    for (;;) {
      if (this.i >= this.text.length) this.fail('unterminated string');
      const code = this.text.charCodeAt(this.i);
      if (code === 0x22) {
        this.i++;
        break;
      }
      if (code < 0x20) this.fail('control character in a string');
      if (code === 0x5c) {
        const e = this.text[this.i + 1];
        if (e === 'u') {
          const hex = this.text.slice(this.i + 2, this.i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('invalid \\u escape');
          units.push(parseInt(hex, 16));
          this.i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          units.push(0x41);
          this.i += 2;
        } else {
          this.fail('invalid escape');
        }
      } else {
        units.push(code);
        this.i++;
      }
    }
    for (let k = 0; k < units.length; k++) {
      const u = units[k]!;
      if (u >= 0xd800 && u <= 0xdbff) {
        const next = units[k + 1];
        if (next === undefined || next < 0xdc00 || next > 0xdfff) this.fail(`lone surrogate in a string in ${path}`);
        k++;
      } else if (u >= 0xdc00 && u <= 0xdfff) {
        this.fail(`lone surrogate in a string in ${path}`);
      }
    }
    return JSON.parse(this.text.slice(start, this.i)) as string;
  }

  private number(path: string): void {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.i, this.i + 400));
    if (!match) this.fail('invalid number');
    const token = match[0];
    this.i += token.length;
    const value = Number(token);
    if (!Number.isFinite(value)) this.fail(`number out of range in ${path}`);
    if (!match[2] && !match[3]) {
      const big = BigInt(token);
      if (big > MAX_SAFE || big < -MAX_SAFE) this.fail(`integer beyond 2^53 in ${path}`);
    } else if (Number.isInteger(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER && !match[3]) {
      this.fail(`integer beyond 2^53 in ${path}`);
    }
  }
}
