import { useState } from 'preact/hooks';
import { QrCode } from '../../shared/qr-code.js';
import type { ApiClient } from '../../shared/api.js';
import { DECLINE_REASON_WORDS } from '../decline-reasons.js';
import { imageDataUrl, localTime, unwrap, useLoad } from '../lib.js';
import { ActionButton } from '../action-button.js';
import { ListTable } from '../list-table.js';
import { Async, Link, Notice, Shell } from '../ui.js';
import { useApi } from './context.js';
import { OperatorNav } from './nav.js';
import { DeliveryStatusWord, DeliveryTable, LastResponse } from './deliveries.js';
import { RestartCapture } from './restart-capture.js';
import { decisionReasonText } from '../decision-reasons.js';

type Api = ApiClient;

/** A decline reason in the reviewer's words (the list the reviewer chose from); an unknown code as it is. */
const reasonWords = (code: string): string => DECLINE_REASON_WORDS[code as keyof typeof DECLINE_REASON_WORDS] ?? code;

/**
 * One stored image, fetched with the operator token only when the operator asks (each view is
 * audited); `onViewed` runs once it is shown, so the page can show the view in its timeline.
 */
function CaseImage({ api, url, caption, onViewed }: { api: Api; url: string | null; caption: string; onViewed: () => void }) {
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <figure class="case-image">
      <figcaption>{caption}</figcaption>
      {!url ? (
        <p class="missing">Not uploaded</p>
      ) : src ? (
        <img src={src} alt={caption} />
      ) : (
        <button
          type="button"
          aria-label={`Show ${caption.toLowerCase()}`}
          onClick={() =>
            imageDataUrl(api, url).then(
              (shown) => {
                setSrc(shown);
                onViewed();
              },
              (err: unknown) => setError(err instanceof Error ? err.message : String(err)),
            )
          }
        >
          Show
        </button>
      )}
      {error && <p role="alert">{error}</p>}
    </figure>
  );
}

/**
 * The operator's page of one verification: status and reason, the timeline from the audit chain,
 * the reviewers' decisions and notes, the images (shown on request: each view is recorded in the
 * audit trail), a new capture link with its QR code, and the decision webhook's deliveries.
 */
export function VerificationDetail({ profileId, id }: { profileId: string; id: string }) {
  const api = useApi();
  const params = { path: { id: profileId, verificationId: id } };
  const state = useLoad(() => unwrap(api.GET('/admin/v1/profiles/{id}/verifications/{verificationId}', { params })), [profileId, id]);
  const [link, setLink] = useState<{ url: string; expires: string } | null>(null);
  return (
    <Shell title="Verification" nav={<OperatorNav />}>
      <p>
        <Link href={`/console/operator/profiles/${profileId}/verifications`}>Back to the profile’s verifications</Link>
      </p>
      <Async state={state}>
        {({ data }) => {
          const v = data.verification;
          return (
            <>
              <section aria-labelledby="summary-h">
                <h2 id="summary-h">Summary</h2>
                <dl class="facts">
                  <dt>Id</dt>
                  <dd>
                    <code>{v.id}</code>
                  </dd>
                  <dt>Status</dt>
                  <dd data-testid="verification-status">{v.status}</dd>
                  <dt>Reason</dt>
                  <dd>{v.erased ? 'erased' : decisionReasonText(v.decision_reason)}</dd>
                  <dt>Reference</dt>
                  <dd>{v.erased ? '—' : (v.reference ?? '—')}</dd>
                  <dt>Created</dt>
                  <dd>{v.erased ? '—' : localTime(v.created_at)}</dd>
                </dl>
              </section>
              <section aria-labelledby="capture-link-h">
                <h2 id="capture-link-h">Capture link</h2>
                {data.can_issue_capture_link ? (
                  <>
                    <p>A new link makes every earlier one stop working. It is valid 30 minutes and shown only here.</p>
                    <ActionButton
                      label="Issue a new capture link"
                      action={async () => {
                        const issued = (
                          await unwrap(api.POST('/admin/v1/profiles/{id}/verifications/{verificationId}/capture-link', { params }))
                        ).data;
                        setLink({ url: issued.capture_url, expires: issued.handoff_expires_at });
                        state.reload();
                      }}
                    >
                      Issue a new capture link
                    </ActionButton>
                    {link && (
                      <div class="capture-link">
                        <p>
                          <a href={link.url} data-testid="capture-link">
                            {link.url}
                          </a>
                        </p>
                        <p class="muted">Valid until {localTime(link.expires)}. Scan it with the person’s phone:</p>
                        <QrCode text={link.url} label="QR code of the capture link" />
                      </div>
                    )}
                  </>
                ) : data.can_restart_capture ? (
                  <RestartCapture
                    api={api}
                    params={params}
                    onLink={(issued) => {
                      setLink(issued);
                      state.reload();
                    }}
                  />
                ) : (
                  <Notice>{v.erased ? 'The verification was erased.' : 'Capture is complete: no new link is needed.'}</Notice>
                )}
              </section>
              <section aria-labelledby="reviews-h">
                <h2 id="reviews-h">Reviewer decisions</h2>
                {data.reviews.length === 0 ? (
                  <Notice>No reviewer has decided this verification.</Notice>
                ) : (
                  <ul class="reviews">
                    {data.reviews.map((r) => (
                      <li key={r.decided_at + r.reviewer}>
                        <strong>{r.decision === 'approve' ? 'Approved' : 'Declined'}</strong> by {r.reviewer_name ?? r.reviewer},{' '}
                        {localTime(r.decided_at)}
                        {r.decline_reasons.length > 0 && <> — {r.decline_reasons.map(reasonWords).join('; ')}</>}
                        <blockquote>{r.note ?? 'The note was erased.'}</blockquote>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              <section aria-labelledby="images-h">
                <h2 id="images-h">Images</h2>
                <p class="muted">Each image you open is recorded in the verification’s audit trail (the timeline below).</p>
                {data.images.document === null && data.images.steps.length === 0 ? (
                  <Notice>No images: nothing was captured yet, or the verification was erased.</Notice>
                ) : (
                  <div class="evidence">
                    <CaseImage api={api} url={data.images.document} caption="Document" onViewed={state.reload} />
                    {data.images.document_back && (
                      <CaseImage api={api} url={data.images.document_back} caption="Document back" onViewed={state.reload} />
                    )}
                    {data.images.steps.map((s) => (
                      <CaseImage
                        key={s.step}
                        api={api}
                        url={s.image_url}
                        caption={`Selfie ${s.step + 1}: ${s.instruction}`}
                        onViewed={state.reload}
                      />
                    ))}
                  </div>
                )}
              </section>
              <section aria-labelledby="timeline-h">
                <h2 id="timeline-h">Timeline</h2>
                <ListTable
                  labelledBy="timeline-h"
                  rows={data.timeline}
                  rowKey={(e) => e.seq}
                  columns={[
                    { label: 'When', cell: (e) => localTime(e.at) },
                    {
                      label: 'What',
                      cell: (e) => (
                        <>
                          <code>{e.type}</code>
                          {typeof e.data.reason === 'string' && <> ({e.data.reason})</>}
                        </>
                      ),
                    },
                    { label: 'Who', cell: (e) => (e.actor_name ? `${e.actor_name} (${e.actor})` : e.actor) },
                  ]}
                />
              </section>
              <section aria-labelledby="deliveries-h">
                <h2 id="deliveries-h">Decision webhook deliveries</h2>
                {data.deliveries.length === 0 ? (
                  <Notice>No decision webhook was sent{v.erased || v.webhook_url ? '' : ': this verification has no webhook URL'}.</Notice>
                ) : (
                  <DeliveryTable api={api} items={data.deliveries} labelledBy="deliveries-h" reload={state.reload} showEndpoint={false} />
                )}
              </section>
            </>
          );
        }}
      </Async>
    </Shell>
  );
}

/** One webhook delivery: the body every attempt sends, each attempt's answer, and when the next one is due. */
export function DeliveryDetail({ id }: { id: string }) {
  const api = useApi();
  const state = useLoad(() => unwrap(api.GET('/admin/v1/webhook-deliveries/{id}', { params: { path: { id } } })), [id]);
  return (
    <Shell title="Webhook delivery" nav={<OperatorNav />}>
      <Async state={state}>
        {({ data: d }) => (
          <>
            <dl class="facts">
              <dt>Event</dt>
              <dd>
                <code>{d.type}</code> <code>{d.eventId}</code>
              </dd>
              <dt>Sent to</dt>
              <dd>
                <code>{d.url}</code>
              </dd>
              <dt>Status</dt>
              <dd>
                <DeliveryStatusWord delivery={d} />
              </dd>
              <dt>Last response</dt>
              <dd>
                <LastResponse statusCode={d.lastStatusCode} error={d.lastError} />
              </dd>
              <dt>Attempts</dt>
              <dd>
                {d.attemptCount} of at most {d.maxAttempts}
              </dd>
              <dt>Next attempt</dt>
              <dd data-testid="next-attempt">{d.nextAttemptAt ? localTime(d.nextAttemptAt) : 'none: the delivery has ended'}</dd>
            </dl>
            <ActionButton
              done="Queued: it is sent again now"
              action={() => unwrap(api.POST('/admin/v1/webhook-deliveries/{id}/redeliver', { params: { path: { id } } }))}
              reload={state.reload}
            >
              Redeliver
            </ActionButton>
            <h2 id="request-h">Request body</h2>
            <p class="muted">The event exactly as every attempt sends it (shown indented here), signed anew at each attempt.</p>
            <pre class="payload" role="region" aria-labelledby="request-h" tabIndex={0} data-testid="request-body">
              {JSON.stringify(JSON.parse(d.requestBody), null, 2)}
            </pre>
            <h2 id="attempts-h">Responses</h2>
            <p class="muted">
              Each answer is kept as its status code (or what went wrong) and the start of its body: the first 1 KiB, as text. The headers
              are not kept.
            </p>
            <ListTable
              empty="No attempt yet."
              stacked
              labelledBy="attempts-h"
              rows={d.attempts}
              rowKey={(a) => a.attempt}
              rowAttrs={(a) => ({ 'data-testid': `attempt-${a.attempt}` })}
              columns={[
                { label: 'Attempt', cell: (a) => a.attempt },
                { label: 'At', cell: (a) => localTime(a.at) },
                {
                  label: 'Response',
                  cell: (a) => (a.statusCode !== null ? `HTTP ${a.statusCode}` : <LastResponse statusCode={null} error={a.error} />),
                },
                { label: 'Duration', cell: (a) => (a.durationMs !== null ? `${a.durationMs} ms` : '—') },
                {
                  label: 'Body of the answer',
                  cellLabel: 'Body',
                  cell: (a) => <AnswerBody attempt={a.attempt} body={a.responseBody} truncated={a.responseBodyTruncated} />,
                },
              ]}
            />
          </>
        )}
      </Async>
    </Shell>
  );
}

/** The start of one answer's body as the log keeps it, or why there is none. */
function AnswerBody({ attempt, body, truncated }: { attempt: number; body: string | null; truncated: boolean }) {
  if (body === null) return <span class="muted">no answer</span>;
  if (body === '' && !truncated) return <span class="muted">empty</span>;
  // One element: a stacked table's cell (a phone) lays out its label and one item side by side.
  return (
    <div>
      <pre
        class="payload excerpt"
        role="region"
        tabIndex={0}
        aria-label={`Body of the answer to attempt ${attempt}`}
        data-testid="response-body"
      >
        {body}
      </pre>
      {truncated && <p class="muted">Only the first 1 KiB is kept: the answer went on past it, or stopped arriving.</p>}
    </div>
  );
}
