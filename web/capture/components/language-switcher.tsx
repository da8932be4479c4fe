import { CAPTURE_LANGUAGES } from '../../../src/plugins/capture-languages.js';
import { announcement } from '../flow.js';
import { CATALOGUES } from '../i18n/catalogues.js';
import { chooseLanguage, language, t } from '../i18n/language.js';

/**
 * English, Nederlands, Deutsch above every screen: a radio group (Tab reaches it, the arrow keys
 * choose), each name in its own language and `lang`, so a screen reader says it right. Only the
 * words change: the screen, its photos and the focus stay where they are (docs/identity.md, "Identity: the
 * hosted capture page").
 */
export function LanguageSwitcher() {
  const current = language.value;
  return (
    <header class="languages">
      <fieldset>
        <legend class="visually-hidden">{t('language.label')}</legend>
        {CAPTURE_LANGUAGES.map((code) => (
          <label key={code} lang={code}>
            <input
              class="visually-hidden"
              type="radio"
              name="language"
              value={code}
              checked={code === current}
              onChange={() => {
                chooseLanguage(code);
                announcement.value = t('language.changed');
              }}
            />
            {CATALOGUES[code]['language.name']}
          </label>
        ))}
      </fieldset>
    </header>
  );
}
