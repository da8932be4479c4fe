import { Fragment } from 'preact';
import { ErrorNote } from './ui.js';
import {
  matchesFirstApproval,
  zoneDifferenceWords,
  zoneFieldWords,
  zoneLineRuns,
  zoneProblems,
  zoneSourceWords,
  type CaseZone,
  type ZoneSource,
} from './review-zone.js';

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

/** The case view's `first_approval`: the approval a deciding approval must match, and the zone it carried. */
export interface FirstApproval {
  reviewer: string;
  reviewer_name: string | null;
  mrz: CaseZone | null;
}

/** One zone with the characters that differ from `other` marked. */
function MarkedZone({ zone, other, testId }: { zone: string; other: string; testId: string }) {
  return (
    <pre class="zone-lines" data-testid={testId} tabIndex={0}>
      {zoneLineRuns(zone, other).map((runs, i) => (
        <Fragment key={i}>
          {i > 0 && '\n'}
          {runs.map((r, j) => (r.differs ? <mark key={j}>{r.text}</mark> : <Fragment key={j}>{r.text}</Fragment>))}
        </Fragment>
      ))}
    </pre>
  );
}

/**
 * Under four-eyes review, the zone the first approval carried beside the zone read, differing
 * characters marked (docs/identity.md, "Four-eyes review"): the deciding approval must carry the same zone,
 * so the second reviewer sees both before confirming one from the document.
 */
export function ZoneComparison({ first, read }: { first: FirstApproval; read: string }) {
  const who = first.reviewer_name ?? first.reviewer;
  const theirs = first.mrz?.lines ?? '';
  return (
    <section aria-labelledby="zone-compare-h" class="zone-compare" data-testid="zone-compare">
      <h3 id="zone-compare-h">Zone of the first approval</h3>
      {first.mrz ? (
        <>
          <p>
            <strong>{who}</strong> approved with the zone below. An approval that decides this case must carry the same lines; if the
            document says otherwise, decline.
          </p>
          <div class="zone-pair">
            <figure>
              <figcaption>Read from the images</figcaption>
              {read ? <MarkedZone zone={read} other={theirs} testId="zone-compare-read" /> : <p>Nothing was read.</p>}
            </figure>
            <figure>
              <figcaption>Carried by the first approval</figcaption>
              <MarkedZone zone={theirs} other={read} testId="zone-compare-first" />
            </figure>
          </div>
          {read && <p data-testid="zone-compare-summary">{zoneDifferenceWords(read, theirs)}</p>}
        </>
      ) : (
        <p>
          <strong>{who}</strong> approved without a zone. An approval that decides this case must carry none either (empty the zone field);
          if the document's zone should be confirmed, decline.
        </p>
      )}
    </section>
  );
}

/**
 * With an approval, the zone the reviewer confirms or corrects from the images: prefilled with what
 * was read, checked as it is typed (the service checks it again and refuses a zone that fails).
 * Left empty, the approval carries no zone.
 */
export function ZoneField({
  value,
  onInput,
  refused,
  first,
}: {
  value: string;
  onInput: (value: string) => void;
  refused: string | null;
  /** Under four-eyes review, the approval this one must match on the zone. */
  first: FirstApproval | null;
}) {
  const problems = value.trim() ? zoneProblems(value) : [];
  const matches = first ? matchesFirstApproval(value, first.mrz?.lines ?? null) : null;
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
        {matches !== null && (
          <p data-testid="zone-match" class={matches ? '' : 'mismatch'}>
            {matches
              ? first?.mrz
                ? 'The same zone as the first approval.'
                : 'No zone, as the first approval.'
              : first?.mrz
                ? 'Not the zone of the first approval: the service refuses this approval unless the lines match.'
                : 'The first approval carried no zone: the service refuses this approval unless the field is empty.'}
          </p>
        )}
      </div>
      {refused && <ErrorNote message={refused} />}
    </fieldset>
  );
}
