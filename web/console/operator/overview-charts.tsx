/** Small charts in inline SVG for the Overview: one bar or point per minute, no chart library. */

export interface Series {
  key: string;
  label: string;
  color: string;
}

const WIDTH = 600;
const HEIGHT = 140;
const PAD_LEFT = 36;
const PAD_BOTTOM = 20;
const PLOT_W = WIDTH - PAD_LEFT;
const PLOT_H = HEIGHT - PAD_BOTTOM - 8;

const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
export const minuteLabel = (iso: string) => clock.format(new Date(iso));

/** A rounded-up top for the y axis: 1, 2, 5, 10, 20, 50… so the scale reads at a glance. */
function niceMax(max: number): number {
  if (max <= 1) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].map((m) => m * step).find((v) => v >= max) ?? 10 * step) as number;
}

function Axes({ top, first, last }: { top: number; first: string; last: string }) {
  return (
    <g class="axes" aria-hidden="true">
      <line x1={PAD_LEFT} y1={8} x2={PAD_LEFT} y2={8 + PLOT_H} />
      <line x1={PAD_LEFT} y1={8 + PLOT_H} x2={WIDTH} y2={8 + PLOT_H} />
      <text x={PAD_LEFT - 6} y={14} text-anchor="end">
        {top}
      </text>
      <text x={PAD_LEFT - 6} y={8 + PLOT_H} text-anchor="end">
        0
      </text>
      <text x={PAD_LEFT} y={HEIGHT - 4}>
        {minuteLabel(first)}
      </text>
      <text x={WIDTH} y={HEIGHT - 4} text-anchor="end">
        {minuteLabel(last)}
      </text>
    </g>
  );
}

export function Legend({ series, totals }: { series: Series[]; totals: Record<string, number | string> }) {
  return (
    <ul class="legend">
      {series.map((s) => (
        <li key={s.key}>
          <span class="swatch" style={{ background: s.color }} aria-hidden="true" />
          {s.label}: <strong>{totals[s.key]}</strong>
        </li>
      ))}
    </ul>
  );
}

/** Stacked bars, one per minute; each bar's tooltip names the minute and its values. */
export function StackedBars({
  label,
  at,
  values,
  series,
}: {
  label: string;
  at: string[];
  values: Record<string, number>[];
  series: Series[];
}) {
  const top = niceMax(Math.max(0, ...values.map((v) => series.reduce((n, s) => n + (v[s.key] ?? 0), 0))));
  const slot = PLOT_W / Math.max(1, values.length);
  return (
    <svg class="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
      <Axes top={top} first={at[0] ?? ''} last={at.at(-1) ?? ''} />
      {values.map((v, i) => {
        let y = 8 + PLOT_H;
        return (
          <g key={at[i]}>
            <title>{`${minuteLabel(at[i]!)}: ${series.map((s) => `${v[s.key] ?? 0} ${s.label.toLowerCase()}`).join(', ')}`}</title>
            {series.map((s) => {
              const h = ((v[s.key] ?? 0) / top) * PLOT_H;
              y -= h;
              return h > 0 ? (
                <rect key={s.key} x={PAD_LEFT + i * slot + 1} y={y} width={Math.max(1, slot - 2)} height={h} fill={s.color} />
              ) : null;
            })}
          </g>
        );
      })}
    </svg>
  );
}

/** One line per series over the minutes. */
export function Lines({ label, at, values, series }: { label: string; at: string[]; values: Record<string, number>[]; series: Series[] }) {
  const top = niceMax(Math.max(0, ...values.flatMap((v) => series.map((s) => v[s.key] ?? 0))));
  const step = PLOT_W / Math.max(1, values.length - 1);
  const point = (i: number, n: number) => `${(PAD_LEFT + i * step).toFixed(1)},${(8 + PLOT_H - (n / top) * PLOT_H).toFixed(1)}`;
  return (
    <svg class="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
      <Axes top={top} first={at[0] ?? ''} last={at.at(-1) ?? ''} />
      {series.map((s) => (
        <polyline
          key={s.key}
          points={values.map((v, i) => point(i, v[s.key] ?? 0)).join(' ')}
          fill="none"
          stroke={s.color}
          stroke-width="2"
          stroke-linejoin="round"
        />
      ))}
    </svg>
  );
}
