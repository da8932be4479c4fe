import { useEffect } from 'preact/hooks';
import { unwrap, useLoad } from './lib.js';
import { Legend, Lines, minuteLabel, StackedBars, type Series } from './overview-charts.js';
import { useApi } from './operator/context.js';
import { OperatorNav } from './operator/nav.js';
import { Async, Shell } from './ui.js';

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

/** The last hour of the whole deployment (GET /admin/v1/activity), per minute, in three small charts. */
export function Overview() {
  const api = useApi();
  const state = useLoad(() => unwrap(api.GET('/admin/v1/activity')), []);
  useEffect(() => {
    const timer = setInterval(state.reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [state.reload]);
  return (
    <Shell title="Overview" nav={<OperatorNav />}>
      <Async state={state}>
        {({ data }) => {
          const at = data.minutes.map((m) => m.at);
          const deliveries = data.minutes.map((m) => m.deliveries);
          const decisions = data.minutes.map((m) => m.decisions);
          const queued = data.minutes.map((m) => m.queued);
          const now = queued.at(-1) ?? {};
          return (
            <>
              <p class="muted">
                The last hour, per minute, from {minuteLabel(data.from)} to {minuteLabel(data.to)}, across every instance. Refreshes every
                30 s.
              </p>
              <div class="charts">
                <section aria-labelledby="chart-deliveries-h" class="chart-card">
                  <h2 id="chart-deliveries-h">Webhook deliveries</h2>
                  <StackedBars label="Webhook attempts per minute: delivered and failed" at={at} values={deliveries} series={DELIVERIES} />
                  <Legend series={DELIVERIES} totals={totals(deliveries, DELIVERIES)} />
                </section>
                <section aria-labelledby="chart-decisions-h" class="chart-card">
                  <h2 id="chart-decisions-h">Identity decisions</h2>
                  <StackedBars label="Identity decisions per minute by status" at={at} values={decisions} series={DECISIONS} />
                  <Legend series={DECISIONS} totals={totals(decisions, DECISIONS)} />
                </section>
                <section aria-labelledby="chart-queue-h" class="chart-card">
                  <h2 id="chart-queue-h">Queue depth</h2>
                  <Lines label="Jobs waiting or running at the end of each minute, by lane" at={at} values={queued} series={LANES} />
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
