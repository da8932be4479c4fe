/**
 * The hosted capture page on a throttled phone: how soon it is interactive (the intro's
 * "Continue" can be pressed), how long the pose check's models take after that, and whether a
 * second visit fetches them again. Chromium through CDP: 4× CPU slowdown and a "fast 3G" network
 * (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up), cold cache on each first visit.
 *
 *   npx tsx bench/capture-page.ts        (needs /usr/bin/chromium and a built dist/web)
 */
import { api, HIGH_LIMITS, identityTenant } from '../test/helpers/identity.js';
import { launchBrowser, PHONE, startServer } from '../test/web/browser.js';

const RUNS = Number(process.env.BENCH_CAPTURE_RUNS ?? 3);
const BUDGET_MS = 1500;

const server = await startServer({ env: HIGH_LIMITS });
const tenant = await identityTenant(server);
const browser = await launchBrowser();
const rows: { interactive: number; models: number | null; firstModelBytes: number; secondVisitModelRequests: number }[] = [];
try {
  // One unrecorded visit first, so the server's own warm-up (first requests, JIT) is not counted as the phone's.
  {
    const v = await api(server).createVerification(tenant.backend);
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${server.url}/capture#${v.handoff_token as string}`);
    await page.getByRole('button', { name: 'Continue' }).waitFor({ timeout: 30_000 });
    await context.close();
  }
  for (let run = 0; run < RUNS; run++) {
    const v = await api(server).createVerification(tenant.backend);
    const url = `${server.url}/capture#${v.handoff_token as string}`;
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
    await page.getByRole('button', { name: 'Continue' }).waitFor({ timeout: 30_000 });
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
  await server.close();
}
console.log('| run | interactive (ms) | pose check ready (ms) | model + WASM bytes | model requests on a second visit |');
console.log('|---|---|---|---|---|');
rows.forEach((r, i) =>
  console.log(
    `| ${i + 1} | ${r.interactive} ${r.interactive <= BUDGET_MS ? 'met' : 'MISSED'} | ${r.models ?? 'failed'} | ${(r.firstModelBytes / 1024 / 1024).toFixed(2)} MB | ${r.secondVisitModelRequests} |`,
  ),
);
process.exit(0);
