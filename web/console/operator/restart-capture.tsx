import type { ApiClient } from '../../shared/api.js';
import { unwrap } from '../lib.js';
import { ActionButton } from '../action-button.js';

/**
 * "New capture link" for a verification declined because its images could not be used
 * (docs/identity.md, "Consent and capture"): POST …/capture-restart deletes its images, puts it back to
 * awaiting_capture and answers a fresh link, which the page shows like an issued one.
 */
export function RestartCapture({
  api,
  params,
  onLink,
}: {
  api: ApiClient;
  params: { path: { id: string; verificationId: string } };
  onLink: (link: { url: string; expires: string }) => void;
}) {
  return (
    <>
      <p>
        Declined because the photos could not be used. Starting capture again deletes them, sets the verification back to awaiting capture
        and makes a new link (valid 30 minutes, shown only here).
      </p>
      <ActionButton
        label="New capture link: start capture again"
        action={async () => {
          const issued = (await unwrap(api.POST('/admin/v1/profiles/{id}/verifications/{verificationId}/capture-restart', { params })))
            .data;
          onLink({ url: issued.capture_url, expires: issued.handoff_expires_at });
        }}
      >
        New capture link
      </ActionButton>
    </>
  );
}
