import { useState } from 'preact/hooks';
import type { ApiClient } from '../../shared/api.js';
import { unwrap, useLoad } from '../lib.js';
import { ActionForm, Async, Link, Shell } from '../ui.js';
import { ReviewPolicyForm } from '../review-policy.js';
import { IdentityRetentionForm } from '../identity-retention.js';
import { PrivacyPolicyForm } from '../privacy-policy.js';
import { Keys } from '../keys.js';
import type { Plan } from '../vocabulary.js';
import { useApi } from './context.js';
import { OperatorNav } from './nav.js';
import { PlanSelect } from './profiles.js';
import { Webhooks } from './webhooks.js';
import { Events } from './events.js';
import { Verifications } from './verifications.js';
import { Governance } from './governance.js';
import { Venues } from './venues.js';
import { TransparencyLog } from './transparency-log.js';

/** The sections of a profile's screen, in the order of its tabs: path segment, label, screen. */
const SECTIONS = [
  ['keys', 'API keys', Keys],
  ['webhooks', 'Webhooks', Webhooks],
  ['events', 'Events', Events],
  ['venues', 'Venues', Venues],
  ['verifications', 'Verifications', Verifications],
  ['governance', 'Governance', Governance],
  ['log', 'Transparency log', TransparencyLog],
] as const;

/** One profile: its name, plan, review policy, identity retention and privacy policy, then one section at a time by tab. */
export function Profile({ id, tab }: { id: string; tab: string }) {
  const api = useApi();
  const state = useLoad(() => unwrap(api.GET('/admin/v1/profiles/{id}', { params: { path: { id } } })), [id]);
  const [current, currentLabel, Section] = SECTIONS.find(([t]) => t === tab) ?? SECTIONS[0];
  // The tab's title names the section and the profile, so two open profiles can be told apart.
  const name = state.data?.data.name;
  return (
    <Shell title="Profile" documentTitle={name ? `${currentLabel} — ${name}` : 'Profile'} nav={<OperatorNav />}>
      <Async state={state}>
        {({ data: profile }) => (
          <>
            <PlanForm api={api} id={id} name={profile.name} plan={profile.plan} saved={state.reload} />
            <ReviewPolicyForm api={api} id={id} policy={profile.reviewPolicy} saved={state.reload} />
            <IdentityRetentionForm api={api} id={id} days={profile.identityRetentionDays} saved={state.reload} />
            <PrivacyPolicyForm api={api} id={id} url={profile.privacyPolicyUrl} saved={state.reload} />
            <nav class="tabs" aria-label="Profile sections">
              {SECTIONS.map(([t, label]) => (
                <Link key={t} href={`/console/operator/profiles/${id}/${t}`} aria-current={t === current ? 'page' : undefined}>
                  {label}
                </Link>
              ))}
            </nav>
            <Section api={api} profileId={id} />
          </>
        )}
      </Async>
    </Shell>
  );
}

function PlanForm({ api, id, name, plan, saved }: { api: ApiClient; id: string; name: string; plan: Plan; saved: () => void }) {
  const [value, setValue] = useState<Plan>(plan);
  return (
    <div class="profile-head">
      <h2 data-testid="profile-name">{name}</h2>
      <p class="muted">
        Id <code>{id}</code>
      </p>
      <ActionForm
        label="Plan"
        submit="Change plan"
        action={async () => {
          await unwrap(api.PATCH('/admin/v1/profiles/{id}', { params: { path: { id } }, body: { plan: value } }));
          saved();
        }}
      >
        <label for="plan">Plan</label>
        <PlanSelect id="plan" value={value} change={setValue} />
      </ActionForm>
    </div>
  );
}
