import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';

const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const OPS = join(import.meta.dirname, '../../ops');
const TOKEN = 'metrics-token-for-prometheus-0123';
const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface QueryAnswer {
  status: string;
  data: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
}

describe('the shipped alert rules', () => {
  it('pass promtool check rules', async () => {
    const { stdout } = await run(PROMTOOL, ['check', 'rules', join(OPS, 'prometheus/alerts.yml')]);
    expect(stdout).toMatch(/SUCCESS: 7 rules found/);
  });

  it("ship a scrape config that promtool accepts (the compose profile's, with its mounted paths pointed here)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prometheus-config-'));
    try {
      writeFileSync(join(dir, 'token'), TOKEN);
      const shipped = readFileSync(join(OPS, 'prometheus/prometheus.yml'), 'utf8');
      expect(shipped).toContain('/etc/prometheus/alerts.yml');
      expect(shipped).toContain('/tmp/metrics-token');
      const config = shipped
        .replaceAll('/etc/prometheus/alerts.yml', join(OPS, 'prometheus/alerts.yml'))
        .replaceAll('/tmp/metrics-token', join(dir, 'token'));
      writeFileSync(join(dir, 'prometheus.yml'), config);
      const { stdout } = await run(PROMTOOL, ['check', 'config', join(dir, 'prometheus.yml')]);
      expect(stdout).toMatch(/SUCCESS: 7 rules found/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pass their promtool unit tests: each fires on what should wake someone (a receiver down among them), and not before', async () => {
    const { stdout } = await run(PROMTOOL, ['test', 'rules', 'alerts.test.yml'], { cwd: join(OPS, 'prometheus') });
    expect(stdout).toMatch(/SUCCESS/);
  });
});

describe('a real Prometheus scraping a running server', () => {
  const { ctx } = useTestApp({ env: { METRICS_TOKEN: TOKEN } });
  let prometheus: ChildProcess | undefined;
  let dir: string;
  let api: string;
  let output = '';

  beforeAll(async () => {
    const address = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const target = new URL(address).host;
    dir = mkdtempSync(join(tmpdir(), 'prometheus-'));
    writeFileSync(join(dir, 'token'), TOKEN);
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        `rule_files: ["${join(OPS, 'prometheus/alerts.yml')}"]`,
        'scrape_configs:',
        '  - job_name: partner-services',
        `    authorization: { type: Bearer, credentials_file: "${join(dir, 'token')}" }`,
        `    static_configs: [{ targets: ["${target}"] }]`,
        // The same server read with a wrong token: Prometheus sees it down (PartnerServicesDown).
        '  - job_name: wrong-token',
        '    authorization: { type: Bearer, credentials: "not-the-metrics-token-000" }',
        `    static_configs: [{ targets: ["${target}"] }]`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    api = `http://127.0.0.1:${port}/api/v1`;
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prometheus.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  });

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Asks Prometheus until `accept` takes the answer's result (scrapes come every second). */
  async function query(promql: string, accept: (r: QueryAnswer['data']['result']) => boolean): Promise<QueryAnswer['data']['result']> {
    let last: unknown;
    for (let i = 0; i < 120; i++) {
      try {
        const res = await fetch(`${api}/query?query=${encodeURIComponent(promql)}`);
        const body = (await res.json()) as QueryAnswer;
        last = body;
        if (body.status === 'success' && accept(body.data.result)) return body.data.result;
      } catch (err) {
        last = err;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`no acceptable answer to ${promql}: ${JSON.stringify(last)}\nprometheus: ${output.slice(-2000)}`);
  }

  it('scrapes /metrics with the bearer token and answers PromQL over its series', async () => {
    for (let i = 0; i < 3; i++) expect((await ctx.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    const up = await query('up{job="partner-services"}', (r) => r.length === 1 && r[0]!.value[1] === '1');
    expect(up[0]!.metric.instance).toMatch(/^127\.0\.0\.1:\d+$/);
    const health = await query(
      'sum(http_server_request_duration_seconds_count{job="partner-services",http_route="/health",http_request_method="GET"})',
      (r) => r.length === 1 && Number(r[0]!.value[1]) >= 3,
    );
    expect(Number(health[0]!.value[1])).toBe(3);
    const lanes = await query('jobs_queued{job="partner-services"}', (r) => r.length === 3);
    expect(lanes.map((r) => r.metric.lane).sort()).toEqual(['deliveries', 'housekeeping', 'identity']);
  });

  it('sees the server as down when the token is wrong', async () => {
    const up = await query('up{job="wrong-token"}', (r) => r.length === 1);
    expect(up[0]!.value[1]).toBe('0');
  });

  it('loads the shipped rules, and every query of the Grafana dashboard is one it accepts', async () => {
    const rules = (await (await fetch(`${api}/rules`)).json()) as { data: { groups: { rules: { name: string; health: string }[] }[] } };
    const loaded = rules.data.groups.flatMap((g) => g.rules);
    expect(loaded.map((r) => r.name)).toContain('WebhookReceiverDown');
    const dashboard = JSON.parse(readFileSync(join(OPS, 'grafana/partner-services.json'), 'utf8')) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(15);
    for (const expr of exprs) {
      const res = await fetch(`${api}/query?query=${encodeURIComponent(expr)}`);
      expect(((await res.json()) as QueryAnswer).status, expr).toBe('success');
    }
    // Once evaluated, no rule reports an error.
    for (let i = 0; i < 40; i++) {
      const again = (await (await fetch(`${api}/rules`)).json()) as typeof rules;
      const all = again.data.groups.flatMap((g) => g.rules);
      if (all.every((r) => r.health === 'ok')) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('rules not healthy');
  });
});
