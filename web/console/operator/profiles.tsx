import { useState } from 'preact/hooks';
import { localTime, navigate, unwrap, useLoad } from '../lib.js';
import { Pager } from '../filtered-list.js';
import { ListTable } from '../list-table.js';
import { ActionForm, Async, Link, Shell } from '../ui.js';
import { PLANS, type Plan } from '../vocabulary.js';
import { useApi } from './context.js';
import { OperatorNav } from './nav.js';

/** The operator's start: every profile (a tenant), and a form to create one. */
export function Profiles() {
  const api = useApi();
  const [page, setPage] = useState(1);
  const state = useLoad(() => unwrap(api.GET('/admin/v1/profiles', { params: { query: { page, limit: 20 } } })), [page]);
  const [name, setName] = useState('');
  const [plan, setPlan] = useState<Plan>('PRO');
  return (
    <Shell title="Profiles" nav={<OperatorNav />}>
      <section aria-labelledby="new-profile-h">
        <h2 id="new-profile-h">New profile</h2>
        <ActionForm
          label="New profile"
          submit="Create profile"
          action={async () => {
            const created = await unwrap(api.POST('/admin/v1/profiles', { body: { name, plan } }));
            navigate(`/console/operator/profiles/${created.data.id}`);
          }}
        >
          <label for="profile-name">Name</label>
          <input id="profile-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <label for="profile-plan">Plan</label>
          <PlanSelect id="profile-plan" value={plan} change={setPlan} />
        </ActionForm>
      </section>
      <section aria-labelledby="profiles-h">
        <h2 id="profiles-h">All profiles</h2>
        <Async state={state}>
          {({ data }) => (
            <>
              <ListTable
                empty="No profiles yet. Create the first one above: a profile is a tenant, with its own keys, venues and events."
                labelledBy="profiles-h"
                rows={data.items}
                rowKey={(p) => p.id}
                columns={[
                  { label: 'Name', cell: (p) => <Link href={`/console/operator/profiles/${p.id}`}>{p.name}</Link> },
                  { label: 'Plan', cell: (p) => p.plan },
                  { label: 'Created', cell: (p) => localTime(p.createdAt) },
                ]}
              />
              <Pager page={data.page} limit={data.limit} total={data.total} go={setPage} />
            </>
          )}
        </Async>
      </section>
    </Shell>
  );
}

/** The plans a profile may be on, as a select (the new-profile form and the profile's own screen). */
export function PlanSelect({ id, value, change }: { id: string; value: Plan; change: (plan: Plan) => void }) {
  return (
    <select id={id} value={value} onChange={(e) => change(e.currentTarget.value as Plan)}>
      {PLANS.map((p) => (
        <option key={p} value={p}>
          {p}
        </option>
      ))}
    </select>
  );
}
