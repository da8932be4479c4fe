import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { CAPTURE_LANGUAGES, type CaptureLanguage } from '../../../src/plugins/capture-languages.js';
import { CATALOGUES } from './catalogues.js';
import { en } from './en.js';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One exact piece of the built page replaced once; a page that no longer holds it fails the build rather than stay English. */
function replaceOnce(html: string, from: string, to: string): string {
  const at = html.indexOf(from);
  if (at < 0 || html.indexOf(from, at + from.length) >= 0) throw new Error(`capture/index.html: expected ${from} exactly once`);
  return html.slice(0, at) + to + html.slice(at + from.length);
}

/**
 * The capture page as served in `code`: its `lang`, title and no-script line in that language,
 * and `data-language`, which tells the page's script that the server chose it (web/capture/i18n/language.ts).
 */
export function capturePageIn(html: string, code: CaptureLanguage): string {
  const words = CATALOGUES[code];
  let page = replaceOnce(html, '<html lang="en">', `<html lang="${code}" data-language="${code}">`);
  page = replaceOnce(page, `<title>${en['page.title']}</title>`, `<title>${escapeHtml(words['page.title'])}</title>`);
  return replaceOnce(page, `<noscript>${en['page.noscript']}</noscript>`, `<noscript>${escapeHtml(words['page.noscript'])}</noscript>`);
}

/**
 * After the build, capture/index.<code>.html for every language the page speaks, so the server
 * answers /capture with the title and `lang` of the request's Accept-Language from the first
 * paint (src/plugins/web-app.ts); capture/index.html stays as built.
 */
export function captureLanguagePages(): Plugin {
  return {
    name: 'capture-language-pages',
    apply: 'build',
    writeBundle(options) {
      const dir = join(options.dir!, 'capture');
      const built = readFileSync(join(dir, 'index.html'), 'utf8');
      for (const code of CAPTURE_LANGUAGES) writeFileSync(join(dir, `index.${code}.html`), capturePageIn(built, code));
    },
  };
}
