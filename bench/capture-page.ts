/**
 * The hosted capture page on a throttled phone: how soon it is interactive (the intro's
 * "I agree" can be pressed), how long the pose check's models take after that, and whether a
 * second visit fetches them again. Chromium through CDP: 4× CPU slowdown and a "fast 3G" network
 * (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up), cold cache on each first visit. The server
 * runs as in production, in a process of its own on a fresh store (bench/seed.ts).
 *
 *   npx tsx bench/capture-page.ts        (needs /usr/bin/chromium and a built dist/web)
 */
import { randomBytes } from 'node:crypto';
import { webAppDir } from '../src/plugins/web-app.js';
import { launchBrowser, PHONE } from '../scripts/fixtures/browser.js';
import { startChild } from './processes.js';
import { createStore } from './seed.js';

const RUNS = Number(process.env.BENCH_CAPTURE_RUNS ?? 3);
const BUDGET_MS = 1500;
const ADMIN_TOKEN = `bench-${randomBytes(16).toString('hex')}`;

if (!webAppDir()) throw new Error('dist/web is missing: run `npm run build:web` before this benchmark');
const store = await createStore();
const server = await startChild(
  'src/server.ts',
  {
    ...store.env,
    ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    CAPTURE_RATE_LIMIT_PER_MINUTE: '100000000',
    IDENTITY_RATE_LIMIT_PER_MINUTE: '100000000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    // Only the page is measured: nothing is uploaded, so the server's own face and document readers stay off.
    FACE_CHECKS: 'off',
    DOCUMENT_READING: 'off',
  },
  '/ready',
);
const base = `http://127.0.0.1:${server.port}`;

async function post(path: string, token: string, body: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return res.json();
}

/** A new verification's capture page URL, the handoff token in its fragment. */
async function captureUrl(backendKey: string): Promise<string> {
  const v = await post('/v1/verifications', backendKey, { webhook_url: 'https://127.0.0.1:9/hooks', reference: 'capture-page-bench' });
  return `${base}/capture#${v.handoff_token as string}`;
}

const rows: { interactive: number; models: number | null; firstModelBytes: number; secondVisitModelRequests: number }[] = [];
const browser = await launchBrowser().catch(async (err: unknown) => {
  await server.stop();
  await store.drop();
  throw err;
});
try {
  const profile = await post('/admin/v1/profiles', ADMIN_TOKEN, { name: 'Capture page bench', plan: 'ENTERPRISE' });
  const key = await post('/admin/v1/api-keys', ADMIN_TOKEN, { service: 'identity', profileId: profile.data.id, role: 'backend' });
  const backend = key.data.key as string;
  // One unrecorded visit first, so the server's own warm-up (first requests, JIT) is not counted as the phone's.
  {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(await captureUrl(backend));
    await page.getByRole('button', { name: 'I agree' }).waitFor({ timeout: 30_000 });
    await context.close();
  }
  for (let run = 0; run < RUNS; run++) {
    const url = await captureUrl(backend);
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    let modelBytes = 0;
    page.on('response', (r) => {
      if (r.url().includes('/capture/models/'))
        void r.body().then(
          (b) => (modelBytes += b.length),
          () => {},
        );
    });
    await page.goto(url, { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'I agree' }).waitFor({ timeout: 30_000 });
    // The page marks when its first actionable screen is up (after the status call): time since navigation start.
    const interactive = Number(await page.evaluate("performance.getEntriesByName('capture:interactive')[0]?.startTime ?? NaN"));
    let models: number | null = null;
    try {
      await page.locator('main[data-pose-check="ready"]').waitFor({ timeout: 120_000 });
      models = Number(await page.evaluate('performance.now()'));
    } catch {
      models = null;
    }
    // A second visit in the same browser: the models come from the HTTP cache (immutable) or Human's IndexedDB copy.
    let again = 0;
    page.on('request', (r) => {
      if (r.url().includes('/capture/models/') && r.url().endsWith('.json')) again++;
    });
    await page.reload({ waitUntil: 'commit' });
    await page.locator('main[data-pose-check="ready"]').waitFor({ timeout: 120_000 });
    rows.push({
      interactive: Math.round(interactive),
      models: models && Math.round(models),
      firstModelBytes: modelBytes,
      secondVisitModelRequests: again,
    });
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
  await store.drop();
}
console.log('| run | interactive (ms) | pose check ready (ms) | model + WASM bytes | model requests on a second visit |');
console.log('|---|---|---|---|---|');
rows.forEach((r, i) =>
  console.log(
    `| ${i + 1} | ${r.interactive} ${r.interactive <= BUDGET_MS ? 'met' : 'MISSED'} | ${r.models ?? 'failed'} | ${(r.firstModelBytes / 1024 / 1024).toFixed(2)} MB | ${r.secondVisitModelRequests} |`,
  ),
);
process.exit(0);
