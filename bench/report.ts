import type { Figure, UploadFigure } from './load.js';

export type Row =
  | { id: string; label: string; status: 'ok'; figure: Figure }
  | { id: string; label: string; status: 'not available' | 'failed'; reason: string };

export interface Target {
  id: string;
  /** What it is compared with: a row id. */
  against: string;
  ratio: number;
}

/** The issue's targets, as ratios to the reference rows. */
export const targets: Target[] = [
  { id: 'event', against: 'B', ratio: 0.85 },
  { id: 'page20', against: 'B', ratio: 0.5 },
  { id: 'page100', against: 'B', ratio: 0.3 },
  { id: 'createEvent', against: 'B', ratio: 0.4 },
  { id: 'decide', against: 'B', ratio: 0.3 },
  { id: 'verify', against: 'verifyLoop', ratio: 0.5 },
];

const UPLOAD_RATIO_TARGET = 0.8;
const UPLOAD_RSS_TARGET_MB = 64;

export interface UploadResult {
  server?: UploadFigure;
  bare?: UploadFigure;
  serverPeakRssAboveIdleMb?: number;
  reason?: string;
}

export interface Results {
  startedAt: string;
  database: 'postgres' | 'pglite';
  durationS: number;
  connections: number;
  node: string;
  rows: Row[];
  uploads: UploadResult;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
/**
 * A ratio beside its target: two decimals, or three where two would round a miss onto the
 * target (0.798 against ≥ 0.8 reads 0.798, not 0.80) or a pass off it.
 */
export function ratioShown(ratio: number, target: number, atMost = false): string {
  const passes = (x: number) => (atMost ? x <= target : x >= target);
  return passes(Number(ratio.toFixed(2))) === passes(ratio) ? fmt(ratio, 2) : fmt(ratio, 3);
}

function rateOf(rows: Row[], id: string): number | undefined {
  const row = rows.find((r) => r.id === id);
  // A route that answered with errors under load has no figure to compare.
  return row?.status === 'ok' && row.figure.failures === 0 ? row.figure.reqPerSec : undefined;
}

export function verdicts(results: Results) {
  const out: { id: string; text: string; pass: boolean | undefined }[] = [];
  for (const t of targets) {
    const mine = rateOf(results.rows, t.id);
    const base = rateOf(results.rows, t.against);
    const ratio = mine !== undefined && base ? mine / base : undefined;
    out.push({
      id: t.id,
      text: `≥ ${t.ratio} × ${t.against}${ratio === undefined ? '' : ` (${ratioShown(ratio, t.ratio)})`}`,
      pass: ratio === undefined ? undefined : ratio >= t.ratio,
    });
  }
  const u = results.uploads;
  if (u.server && u.bare) {
    const ratio = u.server.mbPerSec / u.bare.mbPerSec;
    const rss = u.serverPeakRssAboveIdleMb ?? Infinity;
    out.push({
      id: 'uploads',
      text: `≥ ${UPLOAD_RATIO_TARGET} × bare multipart (${ratioShown(ratio, UPLOAD_RATIO_TARGET)}), peak RSS ≤ ${UPLOAD_RSS_TARGET_MB} MB above idle (${fmt(rss, 1)} MB)`,
      pass: ratio >= UPLOAD_RATIO_TARGET && rss <= UPLOAD_RSS_TARGET_MB,
    });
  } else {
    out.push({
      id: 'uploads',
      text: `≥ ${UPLOAD_RATIO_TARGET} × bare multipart, peak RSS ≤ ${UPLOAD_RSS_TARGET_MB} MB above idle`,
      pass: undefined,
    });
  }
  return out;
}

const mark = (pass: boolean | undefined) => (pass === undefined ? '—' : pass ? 'pass' : 'miss');

export function toMarkdown(results: Results): string {
  const a = rateOf(results.rows, 'A');
  const b = rateOf(results.rows, 'B');
  const checks = new Map(verdicts(results).map((v) => [v.id, v]));
  const lines = [
    `Run ${results.startedAt} on ${results.database}, Node ${results.node}, ${results.durationS} s per route, ${results.connections} connections, loopback.`,
    '',
    '| Route | req/s | p50 ms | p99 ms | × A | × B | Target | Result |',
    '|---|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const row of results.rows) {
    const check = checks.get(row.id);
    if (row.status !== 'ok') {
      lines.push(`| ${row.label} | ${row.status}: ${row.reason.replace(/\|/g, '/')} | | | | | ${check?.text ?? ''} | — |`);
      continue;
    }
    const f = row.figure;
    const failures = f.failures > 0 ? ` (${f.failures} failed)` : '';
    lines.push(
      `| ${row.label} | ${fmt(f.reqPerSec)}${failures} | ${fmt(f.p50Ms, 1)} | ${fmt(f.p99Ms, 1)} | ${a ? fmt(f.reqPerSec / a, 2) : '—'} | ${b ? fmt(f.reqPerSec / b, 2) : '—'} | ${check?.text ?? ''} | ${mark(check?.pass)} |`,
    );
  }
  const u = results.uploads;
  const up = checks.get('uploads')!;
  // A partial run (BENCH_ONLY) without the uploads section has no uploads table.
  if (!u.bare && !u.server && !u.reason) return `${lines.join('\n')}\n`;
  lines.push(
    '',
    '| Uploads (10 concurrent × 15 MB) | MB/s | uploads | p50 ms | p99 ms | Target | Result |',
    '|---|---:|---:|---:|---:|---|---|',
  );
  for (const [label, fig] of [
    ['bare multipart-to-disk route', u.bare],
    ['POST /v1/capture/document', u.server],
  ] as const) {
    if (!fig) {
      lines.push(`| ${label} | not available${u.reason ? `: ${u.reason.replace(/\|/g, '/')}` : ''} | | | | | |`);
      continue;
    }
    const isServer = label.startsWith('POST');
    lines.push(
      `| ${label} | ${fmt(fig.mbPerSec, 1)}${fig.failures ? ` (${fig.failures} failed)` : ''} | ${fig.uploads} | ${fmt(fig.p50Ms)} | ${fmt(fig.p99Ms)} | ${isServer ? up.text : ''} | ${isServer ? mark(up.pass) : ''} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
