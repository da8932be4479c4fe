import { Fragment } from 'preact';
import { ErrorNote } from './ui.js';
import { zoneFieldWords, zoneProblems, zoneSourceWords, type CaseZone, type ZoneSource } from './review-zone.js';

/** The zone's lines as printed, one per row, in a monospace block (focusable: it scrolls sideways in a narrow column). */
function ZoneLines({ text }: { text: string }) {
  return (
    <pre class="zone-lines" data-testid="zone-lines" tabIndex={0}>
      {text}
    </pre>
  );
}

/**
 * The machine-readable zone beside the document images: where it came from, the text the reading
 * saw, and the fields of the zone on record in words.
 */
export function ZonePanel({ zone }: { zone: CaseZone | null }) {
  if (!zone) return <p>No machine-readable zone was sent, and none was read from the images.</p>;
  const source = (zone.source ?? null) as ZoneSource;
  const read = zone.lines ?? '';
  const fields = zoneFieldWords(zone, new Date());
  return (
    <div class="zone" data-testid="zone">
      <p data-testid="zone-source">{zoneSourceWords(source, read)}</p>
      {read && (
        <>
          <h3>Text read from the images</h3>
          <ZoneLines text={read} />
        </>
      )}
      {fields.length > 0 && (
        <>
          <h3>{source === 'typed' ? 'What the typed zone says' : 'What the zone says'}</h3>
          <dl class="facts" data-testid="zone-fields">
            {fields.map((f) => (
              <Fragment key={f.label}>
                <dt>{f.label}</dt>
                <dd>{f.value}</dd>
              </Fragment>
            ))}
          </dl>
        </>
      )}
    </div>
  );
}

/**
 * With an approval, the zone the reviewer confirms or corrects from the images: prefilled with what
 * was read, checked as it is typed (the service checks it again and refuses a zone that fails).
 * Left empty, the approval carries no zone.
 */
export function ZoneField({ value, onInput, refused }: { value: string; onInput: (value: string) => void; refused: string | null }) {
  const problems = value.trim() ? zoneProblems(value) : [];
  return (
    <fieldset class="zone-field">
      <legend>Machine-readable zone</legend>
      <label for="zone">Confirm the lines as printed on the document, or correct them (one line per row)</label>
      <textarea
        id="zone"
        class="zone-lines"
        rows={3}
        cols={44}
        spellcheck={false}
        autocapitalize="characters"
        autocomplete="off"
        value={value}
        aria-describedby="zone-check"
        aria-invalid={problems.length > 0}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      <div id="zone-check" class={problems.length ? 'count' : 'count ok'} aria-live="polite">
        {!value.trim() ? (
          <p>Empty: the approval carries no zone, so the claims that need one (age, nationality, expiry) cannot be attested.</p>
        ) : problems.length ? (
          <ul>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        ) : (
          <p>Every check digit holds.</p>
        )}
      </div>
      {refused && <ErrorNote message={refused} />}
    </fieldset>
  );
}
