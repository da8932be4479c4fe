import { useMemo } from 'preact/hooks';
import { client, localTime, reviewerKey, unwrap } from './lib.js';
import { ActionButton } from './action-button.js';

export interface Claim {
  reviewer: string;
  reviewer_name: string | null;
  until: string;
}

/** "held by Dana until 13:15": who is working on a case now. */
export function ClaimHolder({ claim }: { claim: Claim }) {
  return (
    <span class="claim" data-testid="claim-holder">
      {' '}
      held by {claim.reviewer_name ?? claim.reviewer} until {localTime(claim.until)}
    </span>
  );
}

/**
 * Claim the case so other reviewers see it is being worked on (it lapses after 15 minutes unless
 * claimed again), or give it back. Whether the holder is this key is read from the answer of the
 * claim itself: the case view names the holder, not the caller.
 */
export function ClaimPanel({ id, claim, saved }: { id: string; claim: Claim | null; saved: () => void }) {
  const api = useMemo(() => client(reviewerKey.value), []);
  return (
    <div class="row claim-panel">
      {claim ? <p class="notice warn">This case is{<ClaimHolder claim={claim} />}.</p> : <p class="muted">Nobody holds this case.</p>}
      <ActionButton action={() => unwrap(api.PUT('/v1/review/{id}/claim', { params: { path: { id } } }))} reload={saved}>
        {claim ? 'Claim again (15 min)' : 'Claim this case (15 min)'}
      </ActionButton>
      {claim && (
        <ActionButton action={() => unwrap(api.DELETE('/v1/review/{id}/claim', { params: { path: { id } } }))} reload={saved}>
          Give it back
        </ActionButton>
      )}
    </div>
  );
}
