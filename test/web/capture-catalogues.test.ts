import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newChallenge } from '../../src/identity/capture/challenge.js';
import * as INSTRUCTIONS from '../../src/identity/capture/instructions.js';
import { acceptedLanguages, CAPTURE_LANGUAGES, captureLanguageOf, pickLanguage } from '../../src/plugins/capture-languages.js';
import { format, phrase, placeholdersIn, type Catalogue } from '../../web/capture/i18n/catalogue.js';
import { CATALOGUES } from '../../web/capture/i18n/catalogues.js';
import { en } from '../../web/capture/i18n/en.js';
import { instructionPhrase } from '../../web/capture/i18n/instructions.js';
import { nl } from '../../web/capture/i18n/nl.js';
import { capturePageIn } from '../../web/capture/i18n/served-pages.js';

// The type check refuses a catalogue with a key missing or one too many (npm run typecheck); these
// lines fail it the day it would let one through.
// @ts-expect-error a catalogue without "intro.agree"
const _missing: Catalogue = (({ 'intro.agree': _gone, ...rest }: Catalogue) => rest)(nl);
// @ts-expect-error a catalogue with a key English does not have
const _extra: Catalogue = { ...nl, 'intro.agree_twice': 'Ja' };

const english = en as Catalogue;

describe('the capture page’s catalogues (web/capture/i18n)', () => {
  it('each has exactly the English keys', () => {
    const problems: string[] = [];
    for (const [code, catalogue] of Object.entries(CATALOGUES)) {
      for (const key of Object.keys(english)) if (!(key in catalogue)) problems.push(`${code} misses "${key}"`);
      for (const key of Object.keys(catalogue)) if (!(key in english)) problems.push(`${code} has "${key}", which en.ts does not`);
    }
    expect(problems).toEqual([]);
    expect(Object.keys(CATALOGUES).sort()).toEqual([...CAPTURE_LANGUAGES].sort());
  });

  it('each message has the same placeholders as in English, and words of its own', () => {
    const problems: string[] = [];
    for (const [code, catalogue] of Object.entries(CATALOGUES)) {
      for (const [key, text] of Object.entries(catalogue)) {
        const want = placeholdersIn(english[key as keyof Catalogue] ?? '').sort();
        const got = placeholdersIn(text).sort();
        if (want.join() !== got.join()) problems.push(`${code} "${key}": {${got.join('}, {')}} where English has {${want.join('}, {')}}`);
        if (!text.trim()) problems.push(`${code} "${key}" is empty`);
        if (/\{(?!\w+\})|(?<!\{\w+)\}/.test(text)) problems.push(`${code} "${key}" has a stray brace`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('nl and de are translated, not English copied over (only names and numbers may read the same)', () => {
    const same = (code: 'nl' | 'de') =>
      Object.keys(english).filter((k) => CATALOGUES[code][k as keyof Catalogue] === english[k as keyof Catalogue]);
    expect(same('nl')).toEqual([]);
    expect(same('de')).toEqual([]);
  });

  it('every message is used by the page, so a catalogue holds no words nobody sees', () => {
    const source = (dir: string): string =>
      readdirSync(dir, { withFileTypes: true })
        .map((e) => (e.isDirectory() ? (e.name === 'i18n' ? '' : source(join(dir, e.name))) : readFileSync(join(dir, e.name), 'utf8')))
        .join('\n');
    const code =
      source('web/capture') +
      readFileSync('web/capture/i18n/instructions.ts', 'utf8') +
      readFileSync('web/capture/i18n/language.ts', 'utf8');
    // Read by the build only (served-pages.ts), into the served page.
    const elsewhere = new Set(['page.noscript']);
    expect(Object.keys(english).filter((key) => !elsewhere.has(key) && !code.includes(`'${key}'`))).toEqual([]);
  });

  it('fills placeholders with names, numbers and other messages in the same language; a missing filler stays visible', () => {
    const hint = phrase('hint.more_left');
    expect(format(CATALOGUES.de, phrase('challenge.not_sent', { hint }))).toBe(
      'Nicht gesendet: Drehen Sie den Kopf noch etwas weiter nach links. Nehmen Sie das Foto dann erneut auf.',
    );
    expect(format(CATALOGUES.nl, phrase('upload.sending', { percent: 40 }))).toBe('Versturen… 40%');
    expect(format(CATALOGUES.en, { key: 'return.named', params: {} } as never)).toBe('Back to {requester}');
  });

  it('shows every instruction the challenge gives in the person’s language; unknown words as the API wrote them', () => {
    for (const instruction of Object.values(INSTRUCTIONS)) {
      const p = instructionPhrase(instruction);
      expect(typeof p, instruction).toBe('object');
      expect(format(CATALOGUES.en, p as Exclude<typeof p, string>)).toBe(instruction);
      expect(format(CATALOGUES.de, p as Exclude<typeof p, string>)).not.toBe(instruction);
    }
    for (let i = 0; i < 20; i++) for (const step of newChallenge()) expect(typeof instructionPhrase(step.instruction)).toBe('object');
    expect(instructionPhrase('Raise your eyebrows')).toBe('Raise your eyebrows');
  });
});

describe('which language the capture page speaks (src/plugins/capture-languages.ts)', () => {
  it('takes the most preferred language it speaks from Accept-Language, by q then order; English otherwise', () => {
    expect(captureLanguageOf('nl-NL,nl;q=0.9,en-US;q=0.8,en;q=0.7')).toBe('nl');
    expect(captureLanguageOf('de-CH')).toBe('de');
    expect(captureLanguageOf('fr-FR,fr;q=0.9,de;q=0.5,nl;q=0.4')).toBe('de');
    expect(captureLanguageOf('de;q=0.2, nl;q=0.7')).toBe('nl');
    expect(captureLanguageOf('nl;q=0, de')).toBe('de');
    expect(captureLanguageOf('en;q=0.5, nl;q=0.5')).toBe('en');
    expect(captureLanguageOf('fr, es;q=0.8')).toBe('en');
    expect(captureLanguageOf('*')).toBe('en');
    expect(captureLanguageOf('')).toBe('en');
    expect(captureLanguageOf(undefined)).toBe('en');
  });

  it('skips malformed parts instead of failing', () => {
    expect(acceptedLanguages('nl;q=abc, <script>, de;q=2, ;q=1, en-GB;q=0.3')).toEqual(['en-GB']);
    expect(captureLanguageOf('x'.repeat(300))).toBe('en');
  });

  it('reads navigator.languages by the same rule (any region, either separator)', () => {
    expect(pickLanguage(['fr-BE', 'nl-BE', 'de'])).toBe('nl');
    expect(pickLanguage(['DE_at'])).toBe('de');
    expect(pickLanguage([])).toBe('en');
  });
});

describe('the capture page as served in each language (web/capture/i18n/served-pages.ts)', () => {
  const built =
    '<!doctype html>\n<html lang="en">\n<head><title>Verify your identity</title></head>\n' +
    '<body><div id="app"></div><noscript>This page needs JavaScript to use your camera.</noscript></body>\n</html>';

  it('writes the language, its title and its no-script line into the page, and marks the language as chosen by the server', () => {
    const page = capturePageIn(built, 'de');
    expect(page).toContain('<html lang="de" data-language="de">');
    expect(page).toContain('<title>Identität bestätigen</title>');
    expect(page).toContain('<noscript>Diese Seite benötigt JavaScript, um Ihre Kamera zu verwenden.</noscript>');
    expect(capturePageIn(built, 'en')).toContain('<html lang="en" data-language="en">');
  });

  it('fails the build when the page no longer has the English title it replaces', () => {
    expect(() => capturePageIn(built.replace('Verify your identity', 'Verify'), 'nl')).toThrow(/<title>Verify your identity<\/title>/);
  });
});
