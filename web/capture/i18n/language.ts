import { effect, signal } from '@preact/signals';
import { isCaptureLanguage, pickLanguage, type CaptureLanguage } from '../../../src/plugins/capture-languages.js';
import { format, phrase, type ArgsOf, type MessageKey, type Phrase } from './catalogue.js';
import { CATALOGUES } from './catalogues.js';

/** The person's choice on the switcher, for this tab only (it outlives a reload, not the tab). */
const CHOSEN_KEY = 'capture.language';

/**
 * The language on first load: the switcher's choice in this tab; else the one the server picked
 * from Accept-Language and wrote into the page (`<html data-language>`, src/plugins/web-app.ts), so
 * the first screen matches the page's title and `lang`; else navigator.languages by the same rule
 * (a page not served by this server). docs/identity.md, "Identity: the hosted capture page".
 */
function firstLanguage(): CaptureLanguage {
  let chosen: string | null = null;
  try {
    chosen = sessionStorage.getItem(CHOSEN_KEY);
  } catch {
    // Private mode without storage: the choice lasts until a reload.
  }
  if (isCaptureLanguage(chosen)) return chosen;
  const served = document.documentElement.dataset.language;
  if (isCaptureLanguage(served)) return served;
  return pickLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

export const language = signal<CaptureLanguage>(firstLanguage());

export function chooseLanguage(next: CaptureLanguage): void {
  language.value = next;
  try {
    sessionStorage.setItem(CHOSEN_KEY, next);
  } catch {
    // As above: remembered until a reload.
  }
}

/**
 * A phrase in the current language (a string is words already given, such as an instruction this
 * page does not know); a component that calls it is drawn again when the language changes.
 */
export const say = (p: Phrase | string): string => (typeof p === 'string' ? p : format(CATALOGUES[language.value], p));

/** A message in the current language. */
export const t = <K extends MessageKey>(key: K, ...args: ArgsOf<K>): string => say(phrase(key, ...args));

/** Keeps the document's `lang` (screen readers' voice, hyphenation) and its title in the current language. */
export function followLanguage(): void {
  effect(() => {
    document.documentElement.lang = language.value;
    document.title = t('page.title');
  });
}
