import type { CaptureLanguage } from '../../../src/plugins/capture-languages.js';
import type { Catalogue } from './catalogue.js';
import { de } from './de.js';
import { en } from './en.js';
import { nl } from './nl.js';

/** Every language's catalogue, by the code the server and the switcher use (src/plugins/capture-languages.ts). */
export const CATALOGUES: Readonly<Record<CaptureLanguage, Catalogue>> = { en, nl, de };
