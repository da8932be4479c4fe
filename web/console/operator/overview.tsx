import { useEffect, useState } from 'preact/hooks';
import { localTime, unwrap, useLoad } from '../lib.js';
import { attemptWords } from '../delivery-words.js';
import { Legend, Lines, minuteLabel, StackedBars, type Series } from './overview-charts.js';
import { useApi } from './context.js';
import { OperatorNav } from './nav.js';
import { Async, Link, Shell } from '../ui.js';

/** How often the Overview asks again: a minute's bar fills while the operator looks. */
const REFRESH_MS = 30_000;

const DELIVERIES: Series[] = [
  { key: 'delivered', label: 'Delivered', color: '#059669' },
  { key: 'failed', label: 'Failed', color: '#dc2626' },
];
const DECISIONS: Series[] = [
  { key: 'approved', label: 'Approved', color: '#059669' },
  { key: 'declined', label: 'Declined', color: '#dc2626' },
  { key: 'manual_review', label: 'Manual review', color: '#d97706' },
];
const LANES: Series[] = [
  { key: 'identity', label: 'Identity', color: '#7c3aed' },
  { key: 'deliveries', label: 'Deliveries', color: '#1d4ed8' },
  { key: 'housekeeping', label: 'Housekeeping', color: '#6b7280' },
];

const sum = (values: Record<string, number>[], key: string) => values.reduce((n, v) => n + (v[key] ?? 0), 0);
const totals = (values: Record<string, number>[], series: Series[]) => Object.fromEntries(series.map((s) => [s.key, sum(values, s.key)]));

const RANGES = [
  ['1h', 'Last hour (per minute)'],
  ['6h', 'Last 6 hours (per 6 minutes)'],
  ['24h', 'Last 24 hours (per 24 minutes)'],
] as const;
type Range = (typeof RANGES)[number][0];

type Failing = { url: string; endpoint_id: string | null; profile_id: string; failed: number; last_at: string } & {
  last_status_code: number | null;
  last_error: string | null;
  last_delivery_id: string;
};

/**
 * What is failing now, first on the page: each address whose latest delivery attempt failed, how
 * often, what it met in words, with links to that delivery and to the profile's endpoints.
 */
function FailingBanner({ failing, names }: { failing: Failing[]; names: Map<string, string> }) {
  if (failing.length === 0) return null;
  return (
    <section class="notice error failing" aria-labelledby="failing-h" data-testid="failing">
      <h2 id="failing-h">Webhook deliveries are failing at {failing.length === 1 ? 'one address' : `${failing.length} addresses`}</h2>
      <ul>
        {failing.map((f) => (
          <li key={`${f.url} ${f.profile_id}`}>
            <code>{f.url}</code> ({names.get(f.profile_id) ?? f.profile_id.slice(0, 8)}): {f.failed} failed{' '}
            {f.failed === 1 ? 'attempt' : 'attempts'}, the latest at {localTime(f.last_at)} —{' '}
            {attemptWords(f.last_status_code, f.last_error)}.{' '}
            <Link href={`/console/operator/deliveries/${f.last_delivery_id}`}>See the delivery</Link>
            {f.endpoint_id && (
              <>
                {' · '}
                <Link href={`/console/operator/profiles/${f.profile_id}/webhooks`}>The profile’s endpoints</Link>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The last hour (or 6 or 24) of the deployment or of one profile (GET /admin/v1/activity), in three small charts. */
export function Overview() {
  const api = useApi();
  const [range, setRange] = useState<Range>('1h');
  const [profileId, setProfileId] = useState('');
  const profiles = useLoad(() => unwrap(api.GET('/admin/v1/profiles', { params: { query: { limit: 100 } } })), []);
  const state = useLoad(
    () => unwrap(api.GET('/admin/v1/activity', { params: { query: { range, ...(profileId ? { profileId } : {}) } } })),
    [range, profileId],
  );
  useEffect(() => {
    const timer = setInterval(state.reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [state.reload]);
  const names = new Map((profiles.data?.data.items ?? []).map((p) => [p.id, p.name]));
  return (
    <Shell title="Overview" nav={<OperatorNav />}>
      <div class="row filters">
        <div>
          <label for="overview-range">Time range</label>
          <select id="overview-range" value={range} onChange={(e) => setRange(e.currentTarget.value as Range)}>
            {RANGES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="overview-profile">Profile</label>
          <select id="overview-profile" value={profileId} onChange={(e) => setProfileId(e.currentTarget.value)}>
            <option value="">All profiles</option>
            {[...names].map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Async state={state}>
        {({ data }) => {
          const at = data.minutes.map((m) => m.at);
          const deliveries = data.minutes.map((m) => m.deliveries);
          const decisions = data.minutes.map((m) => m.decisions);
          const queued = data.minutes.map((m) => m.queued);
          const now = queued.at(-1) ?? {};
          const per = data.bucket_minutes === 1 ? 'minute' : `${data.bucket_minutes} minutes`;
          return (
            <>
              <FailingBanner failing={data.failing} names={names} />
              <p class="muted">
                From {minuteLabel(data.from)} to {minuteLabel(data.to)}, per {per}
                {profileId
                  ? `, of ${names.get(profileId) ?? 'one profile'} (the queue is the whole deployment’s)`
                  : ', across every instance'}
                . Refreshes every 30 s.
              </p>
              <div class="charts">
                <section aria-labelledby="chart-deliveries-h" class="chart-card">
                  <h2 id="chart-deliveries-h">Webhook deliveries</h2>
                  <StackedBars
                    label={`Webhook attempts per ${per}: delivered and failed`}
                    at={at}
                    values={deliveries}
                    series={DELIVERIES}
                  />
                  <Legend series={DELIVERIES} totals={totals(deliveries, DELIVERIES)} />
                </section>
                <section aria-labelledby="chart-decisions-h" class="chart-card">
                  <h2 id="chart-decisions-h">Identity decisions</h2>
                  <StackedBars label={`Identity decisions per ${per} by status`} at={at} values={decisions} series={DECISIONS} />
                  <Legend series={DECISIONS} totals={totals(decisions, DECISIONS)} />
                </section>
                <section aria-labelledby="chart-queue-h" class="chart-card">
                  <h2 id="chart-queue-h">Queue depth</h2>
                  <Lines
                    label={`Jobs waiting or running at the end of each ${per === 'minute' ? 'minute' : 'count'}, by lane`}
                    at={at}
                    values={queued}
                    series={LANES}
                  />
                  <Legend
                    series={LANES}
                    totals={Object.fromEntries(LANES.map((s) => [s.key, `${now[s.key as keyof typeof now] ?? 0} now`]))}
                  />
                </section>
              </div>
            </>
          );
        }}
      </Async>
    </Shell>
  );
}
