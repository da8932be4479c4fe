import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { addKey } from '../helpers/tenants.js';
import { api, captureAll, captureIntoManualReview, HIGH_LIMITS, identityTenant, settle } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';
import { draftEvent, organizer, ticketType } from '../helpers/ticketing.js';
import { axeViolations } from './axe.js';
import { browserAvailable, collectPageErrors, DESKTOP, PHONE, screenshot, useLiveConsole } from './browser.js';

/** A screenshot to look at, and the screen as it is now free of serious and critical axe violations. */
async function look(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect(await axeViolations(page), name).toEqual([]);
}

/**
 * A destructive action asks first: the dialog names what will happen; Escape cancels (nothing
 * is sent, focus is back on the button); the second time its confirm button does it.
 */
async function confirmDestructive(page: Page, button: Locator, says: RegExp, confirm: string, shot?: string): Promise<void> {
  let sent = 0;
  const count = (r: { request(): { method(): string } }) => void (r.request().method() !== 'GET' && sent++);
  page.on('response', count);
  await button.click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  expect(await dialog.textContent()).toMatch(says);
  // Focus starts inside the dialog (on Cancel), and Tab cannot leave it.
  expect(await dialog.evaluate((d) => d.contains((globalThis as any).document.activeElement))).toBe(true);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await dialog.evaluate((d) => d.contains((globalThis as any).document.activeElement))).toBe(true);
  if (shot) await look(page, shot);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await button.evaluate((b) => b === (globalThis as any).document.activeElement)).toBe(true);
  expect(sent).toBe(0);
  page.off('response', count);
  await button.click();
  await page.getByRole('dialog').getByRole('button', { name: confirm, exact: true }).click();
}

describe.skipIf(!browserAvailable())('consoles in chromium', () => {
  const live = useLiveConsole({ env: HIGH_LIMITS });

  async function open(path: string, viewport = DESKTOP): Promise<{ page: Page; errors: string[] }> {
    const context = await live.browser.newContext({ viewport, timezoneId: 'Europe/Amsterdam' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${live.server.url}${path}`);
    return { page, errors };
  }

  it('operator: signs in, creates a profile and a key (shown once), registers an endpoint, sends a test event and sees it in the log', async () => {
    const { page, errors } = await open('/console/operator');
    await page.getByLabel('Operator token (ADMIN_TOKEN)').waitFor();
    await look(page, 'operator-sign-in');
    await page.getByLabel('Operator token (ADMIN_TOKEN)').fill('wrong-token-wrong-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('A valid operator token is required').waitFor();
    await page.getByLabel('Operator token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Profiles', level: 1 }).waitFor();

    await page.getByLabel('Name').fill('Acme Events');
    await page.getByLabel('Plan').selectOption('PRO');
    await look(page, 'operator-profiles');
    await page.getByRole('button', { name: 'Create profile' }).click();
    await page.getByTestId('profile-name').getByText('Acme Events').waitFor();
    const profileId = /profiles\/([0-9a-f-]{36})/.exec(page.url())![1]!;

    // API key: shown once with a copy button, then only masked.
    await page.getByLabel('Key name (optional: who holds it, e.g. the reviewer)').fill('Dana at the front desk');
    await page.getByLabel('Service').selectOption('identity');
    await page.getByLabel('Role').selectOption('reviewer');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret').textContent())!;
    expect(secret.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await look(page, 'operator-key-shown-once');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    // Listed by its prefix and last four characters only, never by the secret.
    await page
      .getByRole('table', { name: 'API keys' })
      .getByText(`${secret.slice(0, 'idv_live_'.length + 4)}…${secret.slice(-4)}`)
      .waitFor();
    expect(await page.content()).not.toContain(secret);
    const keys = await live.server.admin('GET', `/api-keys?profileId=${profileId}`);
    expect(keys.data.items).toMatchObject([
      { service: 'identity', role: 'reviewer', revokedAt: null, name: 'Dana at the front desk', lastUsedAt: null },
    ]);
    await page
      .getByRole('table', { name: 'API keys' })
      .getByRole('row', { name: /Dana at the front desk/ })
      .getByText('never')
      .waitFor();
    await look(page, 'operator-keys');

    // Webhook endpoint: secret shown once; a test event lands in the delivery log.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL (https)').fill('https://127.0.0.1:9/hooks');
    await page.getByRole('button', { name: 'Register endpoint' }).click();
    await page.getByTestId('secret').waitFor();
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('table', { name: 'Webhook endpoints' }).getByText('https://127.0.0.1:9/hooks').waitFor();
    await page.getByRole('button', { name: 'Send test event to https://127.0.0.1:9/hooks' }).click();
    const log = page.getByRole('table', { name: 'Delivery log' });
    await log.getByText('webhook.test').waitFor();
    expect(await log.getByTestId('delivery-state').first().textContent()).toBe('pending');
    await look(page, 'operator-webhooks');

    // The other sections render too.
    for (const [tab, heading] of [
      ['Events', 'Events'],
      ['Verifications', 'Verifications'],
      ['Governance', 'Governance'],
    ] as const) {
      await page.getByRole('link', { name: tab, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 2, exact: true }).waitFor();
      await look(page, `operator-${tab.toLowerCase()}`);
    }

    // A dead server is reported, not waited on forever.
    await page.route('**/admin/v1/**', (route) => route.abort('connectionrefused'));
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('alert').getByText('The server cannot be reached').first().waitFor();
    await look(page, 'operator-server-down');
    expect(errors.filter((e) => !/Failed to load resource|ERR_CONNECTION_REFUSED|net::/.test(e))).toEqual([]);
  }, 120_000);

  it('operator: starts a verification and opens its capture link; every destructive action (revoke a key, rotate, disable, cancel an event, revoke a delegation) asks first', async () => {
    const org = await organizer(live.server);
    const harbour = await draftEvent(org, { name: 'Harbour Nights' });
    await ticketType(live.server, harbour.id);
    const jazz = await draftEvent(org, { name: 'Dock Jazz' });
    await ticketType(live.server, jazz.id);
    const { page, errors } = await open('/console/operator');
    await page.getByLabel('Operator token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Profiles', level: 1 }).waitFor();
    const section = (tab: string) => page.goto(`${live.server.url}/console/operator/profiles/${org.profileId}/${tab}`);

    // A verification started here: its capture link is shown once and opens the capture page.
    await section('verifications');
    await page.getByLabel('Reference (optional)').fill('walk-in 7');
    await page.getByRole('button', { name: 'Start verification' }).click();
    const link = page.getByTestId('secret').getByRole('link');
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/\/capture#[\w-]{43}$/);
    await look(page, 'operator-verification-started');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('table', { name: 'Verifications' }).getByText('walk-in 7').waitFor();
    expect(await page.content()).not.toContain(new URL(href).hash.slice(1));
    const phone = await open(`${new URL(href).pathname}${new URL(href).hash}`, PHONE);
    await expect.poll(() => phone.page.locator('main').getAttribute('data-screen'), { timeout: 15_000 }).toBe('intro');
    await look(phone.page, 'operator-verification-capture-page');

    // A key revoked in the console stops working at once.
    await section('keys');
    const keys = page.getByRole('table', { name: 'API keys' });
    await confirmDestructive(
      page,
      page.getByRole('button', { name: /^Revoke key / }),
      /Every request made with tk_live_[\w-]{4}…[\w-]{4} \(ticketing\) is refused from now on/,
      'Revoke key',
      'operator-confirm-revoke-key',
    );
    await keys.getByText(/^revoked /).waitFor();
    expect((await org.call('GET', '/events')).statusCode).toBe(401);
    await look(page, 'operator-key-revoked');

    // An endpoint: the rotated secret is shown once; disabled, then enabled again; a delivery redelivered.
    await section('webhooks');
    await page.getByLabel('Endpoint URL (https)').fill('https://127.0.0.1:9/rotating');
    await page.getByRole('button', { name: 'Register endpoint' }).click();
    const first = (await page.getByTestId('secret').textContent())!;
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await confirmDestructive(
      page,
      page.getByRole('button', { name: 'Rotate secret of https://127.0.0.1:9/rotating' }),
      /the receiver must be given the new secret/,
      'Rotate secret',
    );
    await page.getByText('New signing secret').waitFor();
    const rotated = (await page.getByTestId('secret').textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(first);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    const endpoints = page.getByRole('table', { name: 'Webhook endpoints' });
    await confirmDestructive(
      page,
      page.getByRole('button', { name: 'Disable https://127.0.0.1:9/rotating' }),
      /Nothing is sent to https:\/\/127.0.0.1:9\/rotating until it is enabled again/,
      'Disable endpoint',
    );
    await endpoints.getByText(/^disabled/).waitFor();
    // Nothing is sent to a disabled endpoint, so the console offers no test event for it.
    expect(await page.getByRole('button', { name: 'Send test event to https://127.0.0.1:9/rotating' }).count()).toBe(0);
    await look(page, 'operator-endpoint-disabled');
    await page.getByRole('button', { name: 'Enable https://127.0.0.1:9/rotating' }).click();
    await endpoints.getByText('enabled', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send test event to https://127.0.0.1:9/rotating' }).click();
    const log = page.getByRole('table', { name: 'Delivery log' });
    await log.getByText('webhook.test').waitFor();
    // The attempt is brought forward (the log keeps one row per delivery): the server accepts the console's request.
    const redelivered = page.waitForResponse((r) => r.url().endsWith('/redeliver') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Redeliver webhook.test' }).first().click();
    expect((await redelivered).status()).toBe(202);
    await expect.poll(() => log.getByRole('alert').count()).toBe(0);
    await look(page, 'operator-redelivered');

    // Events: filtered by status, one published, one cancelled.
    await section('events');
    const events = page.getByRole('table', { name: 'Events' });
    await events.getByText('Harbour Nights').waitFor();
    await page.getByRole('button', { name: 'Publish Harbour Nights' }).click();
    await events
      .getByRole('row', { name: /Harbour Nights/ })
      .getByText('ACTIVE')
      .waitFor();
    await confirmDestructive(page, page.getByRole('button', { name: 'Cancel Dock Jazz' }), /cancelled for good/, 'Cancel the event');
    await events
      .getByRole('row', { name: /Dock Jazz/ })
      .getByText('CANCELLED')
      .waitFor();
    await page.getByLabel('Status').selectOption('ACTIVE');
    await events.getByText('Harbour Nights').waitFor();
    await expect.poll(() => events.getByText('Dock Jazz').count()).toBe(0);
    await look(page, 'operator-events-active');
    expect(
      (await live.server.admin('GET', `/profiles/${org.profileId}/events?status=CANCELLED`)).data.items.map((e: { id: string }) => e.id),
    ).toEqual([jazz.id]);

    // Governance: a delegation past its expiry reads "expired" (nothing to revoke); a live one is revoked after confirming.
    const baseline = { fingerprint: 'fp-1', maxDrift: 0.2 };
    for (const agentId of ['pricing-bot', 'refund-bot'])
      await live.server.admin('POST', '/governance/agents', { profileId: org.profileId, agentId, mandate: ['refund:*'], baseline });
    await live.server.admin('POST', '/governance/delegations', {
      profileId: org.profileId,
      agentId: 'pricing-bot',
      grantedBy: 'ops@example.com',
      expiresAt: '2020-01-01T00:00:00Z',
    });
    await live.server.admin('POST', '/governance/delegations', {
      profileId: org.profileId,
      agentId: 'refund-bot',
      grantedBy: 'ops@example.com',
      expiresAt: '2099-01-01T00:00:00Z',
    });
    await section('governance');
    const delegations = page.getByRole('table', { name: 'Delegations' });
    await delegations
      .getByRole('row', { name: /pricing-bot/ })
      .getByText('expired', { exact: true })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Revoke the delegation to pricing-bot' }).count()).toBe(0);
    await confirmDestructive(
      page,
      page.getByRole('button', { name: 'Revoke the delegation to refund-bot' }),
      /refund-bot may no longer act for ops@example.com/,
      'Revoke delegation',
      'operator-confirm-revoke-delegation',
    );
    await delegations
      .getByRole('row', { name: /refund-bot/ })
      .getByText(/^revoked /)
      .waitFor();
    await look(page, 'operator-governance-delegations');

    // The profile's transparency-log keys, exactly as the public list has them, for the operator to hand to auditors.
    const logKeys = page.getByRole('region', { name: 'Transparency-log keys' });
    await logKeys.getByText(/No log yet/).waitFor();
    await addKey(live.server, org.profileId, { service: 'governance', scopes: ['governance:read'] });
    await section('governance');
    const published = (await (await fetch(`${live.server.url}/v1/governance/log/keys`)).json()) as {
      keys: { origin: string; verifier_key: string; ml_dsa_public_key: string }[];
    };
    const pinned = published.keys.find((k) => k.origin.endsWith(org.profileId))!;
    await logKeys.getByText(pinned.verifier_key, { exact: true }).waitFor();
    await logKeys.getByText(pinned.origin, { exact: true }).waitFor();
    await logKeys.getByText(`${pinned.ml_dsa_public_key.slice(0, 24)}… (${pinned.ml_dsa_public_key.length} characters)`).click();
    await logKeys.getByText(pinned.ml_dsa_public_key, { exact: true }).waitFor();
    await logKeys.scrollIntoViewIfNeeded();
    await look(page, 'operator-governance-log-keys');
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  }, 120_000);

  it('operator: adds a venue (a refused field said in words), edits it; the empty list says so and the title follows the screen', async () => {
    const profile = (await live.server.admin('POST', '/profiles', { name: 'Quay Venues', plan: 'PRO' })).data;
    const { page, errors } = await open('/console/operator');
    await page.getByLabel('Operator token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Profiles', level: 1 }).waitFor();
    // The title follows the screen once it has rendered (set in an effect), so it is polled.
    await expect.poll(() => page.title()).toBe('Profiles — Partner services console');
    await page.getByRole('link', { name: 'Quay Venues' }).click();
    await page.getByRole('link', { name: 'Venues', exact: true }).click();
    await page.getByRole('heading', { name: 'Venues', level: 2, exact: true }).waitFor();
    await page.getByText('No venues yet.').waitFor();
    await expect.poll(() => page.title()).toBe('Venues — Quay Venues — Partner services console');
    await look(page, 'operator-venues-empty');

    // A field the server refuses is named in words, not as a schema path; nothing is stored.
    const add = page.getByRole('form', { name: 'New venue' });
    await add.getByLabel('Name').fill('Harbour Hall');
    await add.getByLabel('Address').fill('Kade 1');
    await add.getByLabel('City (optional)').fill('Amsterdam');
    await add.getByLabel('Latitude (−90 to 90)').fill('52.37');
    await add.getByLabel('Longitude (−180 to 180)').fill('4.9');
    await add.getByLabel('Time zone (optional, e.g. Europe/Berlin)').fill('Mars/Olympus');
    await add.getByRole('button', { name: 'Add venue' }).click();
    const refused = add.getByRole('alert');
    await refused.getByText('Time zone: unknown time-zone name').waitFor();
    expect(await refused.textContent()).not.toContain('body.');
    await look(page, 'operator-venue-refused');
    expect((await live.server.admin('GET', `/profiles/${profile.id}/venues`)).data.items).toEqual([]);

    await add.getByLabel('Time zone (optional, e.g. Europe/Berlin)').fill('Europe/Amsterdam');
    await add.getByRole('button', { name: 'Add venue' }).click();
    const venues = page.getByRole('table', { name: 'Venues' });
    await venues
      .getByRole('row', { name: /Harbour Hall/ })
      .getByText('Europe/Amsterdam')
      .waitFor();
    await page.getByRole('status').getByText('Added Harbour Hall.').waitFor();
    expect(await add.getByLabel('Name').inputValue()).toBe('');

    // Edit: the form opens filled in, with the cursor in its first field; a cleared city is cleared.
    await venues.getByRole('button', { name: 'Edit Harbour Hall' }).click();
    const edit = page.getByRole('form', { name: 'Edit Harbour Hall' });
    await expect.poll(() => edit.getByLabel('Name').evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);
    expect(await edit.getByLabel('Address').inputValue()).toBe('Kade 1');
    expect(await edit.getByLabel('Latitude (−90 to 90)').inputValue()).toBe('52.37');
    await edit.getByLabel('Name').fill('Harbour Hall East');
    await edit.getByLabel('City (optional)').fill('');
    await look(page, 'operator-venue-editing');
    await edit.getByRole('button', { name: 'Save venue' }).click();
    await venues.getByRole('row', { name: /Harbour Hall East/ }).waitFor();
    await page.getByRole('status').getByText('Saved Harbour Hall East.').waitFor();
    expect(await page.getByRole('form', { name: /^Edit / }).count()).toBe(0);
    expect((await live.server.admin('GET', `/profiles/${profile.id}/venues`)).data.items).toMatchObject([
      { name: 'Harbour Hall East', address: 'Kade 1', city: null, lat: 52.37, lng: 4.9, timezone: 'Europe/Amsterdam' },
    ]);
    await look(page, 'operator-venues');

    // Cancel leaves the venue as it was.
    await venues.getByRole('button', { name: 'Edit Harbour Hall East' }).click();
    await page.getByRole('form', { name: 'Edit Harbour Hall East' }).getByLabel('Name').fill('Nothing saved');
    await page.getByRole('button', { name: 'Cancel editing' }).click();
    expect(await page.getByRole('form', { name: /^Edit / }).count()).toBe(0);
    expect((await live.server.admin('GET', `/profiles/${profile.id}/venues`)).data.items[0].name).toBe('Harbour Hall East');
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  }, 60_000);

  it('reviewer: opens a case in manual_review, sees its images, is refused a short note, decides it; a late second decision reads already decided', async () => {
    const tenant = await identityTenant(live.server);
    const second = await addKey(live.server, tenant.profileId, { service: 'identity', role: 'reviewer' });
    const document = png(640, 480, { seed: 4242, noisyRows: 480 });
    const first = await captureAll(live.server, tenant.backend, { document });
    await settle(live.server, tenant.backend, first.id);
    const frames = (step: number) => png(480, 640, { seed: 9000 + step, noisyRows: 640 });
    const { id, challenge } = await captureAll(live.server, tenant.backend, { document, frames });
    expect((await settle(live.server, tenant.backend, id)).status).toBe('manual_review');

    const { page, errors } = await open('/console/review');
    await page.getByLabel('Reviewer API key').waitFor();
    await look(page, 'reviewer-sign-in');
    await page.getByLabel('Reviewer API key').fill(tenant.reviewer);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('document_reused').waitFor();
    await look(page, 'reviewer-queue');

    // The second reviewer has the same case open.
    const late = await open('/console/review');
    await late.page.getByLabel('Reviewer API key').fill(second.key);
    await late.page.getByRole('button', { name: 'Sign in' }).click();
    await late.page.getByRole('link', { name: id.slice(0, 8) }).click();
    await late.page.getByLabel('Note (why; at least 20 characters; Enter submits, Shift+Enter new line)').waitFor();

    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Case ${id.slice(0, 8)}` }).waitFor();
    const images = page.locator('.gallery img');
    await expect.poll(() => images.count(), { timeout: 15_000 }).toBe(1 + challenge.steps.length);
    type Img = { complete: boolean; naturalWidth: number };
    await page.waitForFunction(() =>
      [...(globalThis as any).document.querySelectorAll('.gallery img')].every((img: Img) => img.complete && img.naturalWidth > 0),
    );
    const widths = await images.evaluateAll((imgs) => imgs.map((img) => (img as unknown as Img).naturalWidth));
    expect(widths).toEqual([640, ...challenge.steps.map(() => 480)]);
    for (const s of challenge.steps) await page.getByText(`Step ${s.step + 1}: ${s.instruction}`).waitFor();
    // Why it is document_reused: the earlier verification with the same document, named (decided, so not a link).
    await page.getByTestId('document-used-by').getByText(first.id.slice(0, 8)).waitFor();
    await page.getByText('(not open to reviewers)').waitFor();
    await page
      .getByText('review.image_viewed')
      .first()
      .waitFor({ state: 'attached' })
      .catch(() => undefined);
    await look(page, 'reviewer-case');

    // A short note is refused in the page: nothing reaches the live.server.
    await page.keyboard.press('a');
    await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('note');
    await page.keyboard.type('looks fine');
    await page.getByText('10 of 20 characters — too short').waitFor();
    await page.getByRole('button', { name: 'Submit decision' }).click();
    await page.getByRole('alert').getByText('The note needs at least 20 characters (now 10).').waitFor();
    await look(page, 'reviewer-short-note');
    expect((await api(live.server).call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json().status).toBe(
      'manual_review',
    );

    await page
      .getByLabel('Note (why; at least 20 characters; Enter submits, Shift+Enter new line)')
      .fill('Document matches the selfie frames; reuse explained by the customer.');
    await page.keyboard.press('Enter');
    await page.getByText('The queue is empty').waitFor();
    await page.getByText(`Case ${id.slice(0, 8)}: approved.`).waitFor();
    await look(page, 'reviewer-queue-empty');
    expect((await api(live.server).call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json().status).toBe('approved');

    // The second reviewer's decision comes too late.
    await late.page.getByLabel('Decline').check();
    await late.page
      .getByLabel('Note (why; at least 20 characters; Enter submits, Shift+Enter new line)')
      .fill('Declining: the document was used before elsewhere.');
    await late.page.getByRole('button', { name: 'Submit decision' }).click();
    await late.page.getByText(`Case ${id.slice(0, 8)} was already decided: moved on.`).waitFor();
    await look(late.page, 'reviewer-already-decided');
    expect((await api(live.server).call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json().status).toBe('approved');
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  }, 120_000);

  it('reviewer: decides three cases in a row with the keyboard alone; focus lands on each next case, the name of the key is in the audit trail', async () => {
    const tenant = await identityTenant(live.server);
    const dana = await addKey(live.server, tenant.profileId, { service: 'identity', role: 'reviewer', name: 'Dana Reviewer' });
    const cases = [];
    // A minute apart: the queue (oldest first) then lists them in this order.
    for (const seed of [6101, 6102, 6103]) {
      live.server.clock.advance(60_000);
      cases.push((await captureIntoManualReview(live.server, tenant.backend, seed)).id);
    }
    const short = (id: string) => id.slice(0, 8);
    // Another reviewer holds the second case: the queue says so.
    await api(live.server).call('PUT', `/v1/review/${cases[1]}/claim`, tenant.reviewer, undefined, 200);
    const { page, errors } = await open('/console/review');
    await page.getByLabel('Reviewer API key').fill(dana.key);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Review queue' }).waitFor();
    await page.getByRole('link', { name: short(cases[0]!) }).waitFor();
    await page
      .getByRole('row', { name: new RegExp(short(cases[1]!)) })
      .getByText(/held by reviewer:[0-9a-f-]{36} until/)
      .waitFor();
    await look(page, 'reviewer-queue-claimed');
    // j/k move through the queue, Enter opens the case.
    await page.keyboard.press('j');
    await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('case-1');
    await page.keyboard.press('k');
    await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('case-0');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Case ${short(cases[0]!)}` }).waitFor();
    await page.locator('.gallery img').first().waitFor();
    await page.getByText('Dana Reviewer').first().waitFor();
    // Dana claims the first case; others see it held by her name.
    await page.getByRole('button', { name: 'Claim this case (15 min)' }).click();
    await page
      .getByTestId('claim-holder')
      .getByText(/held by Dana Reviewer until/)
      .waitFor();
    const seen = (await api(live.server).call('GET', '/v1/review', tenant.reviewer, undefined, 200)).json().items[0];
    expect(seen).toMatchObject({ id: cases[0], claim: { reviewer_name: 'Dana Reviewer' } });
    await look(page, 'reviewer-case-evidence');

    // An image opens full size from the keyboard; Escape closes it and focus returns.
    const documentImage = page.getByRole('button', { name: 'Document: open full size' });
    await documentImage.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Document' }).waitFor();
    await look(page, 'reviewer-image-full-size');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await documentImage.evaluate((b) => b === (globalThis as any).document.activeElement)).toBe(true);

    const focusedText = () => page.evaluate(() => (globalThis as any).document.activeElement?.textContent as string);
    const NOTE = 'Portrait and frames compared one by one.';
    const decisions = ['a', 'd', 'a'] as const;
    for (const [i, key] of decisions.entries()) {
      const id = cases[i]!;
      await page.getByRole('heading', { name: `Case ${short(id)}` }).waitFor();
      await page.keyboard.press(key);
      await page.keyboard.type(NOTE);
      // Only the note was typed: the command keys did not land in the note box.
      expect(await page.locator('#note').inputValue()).toBe(NOTE);
      await page.keyboard.press('Enter');
      const said = `Case ${short(id)}: ${key === 'a' ? 'approved' : 'declined'}.`;
      const next = cases[i + 1];
      const heading = next ? `Case ${short(next)}` : 'Review queue';
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.getByText(said).waitFor();
      await expect.poll(focusedText).toBe(heading);
      if (i === 0) await look(page, 'reviewer-next-case-focused');
    }
    await page.getByText('The queue is empty').waitFor();
    await look(page, 'reviewer-three-decided');
    const statuses = [];
    for (const id of cases)
      statuses.push((await api(live.server).call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json().status);
    expect(statuses).toEqual(['approved', 'declined', 'approved']);
    await expect.poll(() => page.title()).toBe('Review queue — Partner services console');
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  }, 180_000);

  it('four-eyes review: the operator sets it; two reviewer keys agree on one case and disagree on another, a third decides', async () => {
    const tenant = await identityTenant(live.server);
    const added = [
      await addKey(live.server, tenant.profileId, { service: 'identity', role: 'reviewer' }),
      await addKey(live.server, tenant.profileId, { service: 'identity', role: 'reviewer' }),
    ];
    const keys = [{ key: tenant.reviewer }, ...added];
    const reviewerKeys = (await live.server.admin('GET', `/api-keys?profileId=${tenant.profileId}`)).data.items as {
      role?: string;
      id: string;
    }[];
    const firstKeyId = reviewerKeys.find((k) => k.role === 'reviewer' && !added.some((a) => a.keyId === k.id))!.id;

    // The operator turns four-eyes review on from the profile screen.
    const operator = await open('/console/operator');
    await operator.page.getByLabel('Operator token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
    await operator.page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in (the token is stored) before leaving the page.
    await operator.page.getByRole('heading', { name: 'Profiles', level: 1 }).waitFor();
    await operator.page.goto(`${live.server.url}/console/operator/profiles/${tenant.profileId}/keys`);
    await operator.page.getByLabel('Manual review').selectOption('four_eyes');
    await operator.page.getByRole('button', { name: 'Change review policy' }).click();
    await expect.poll(async () => (await live.server.admin('GET', `/profiles/${tenant.profileId}`)).data.reviewPolicy).toBe('four_eyes');
    await look(operator.page, 'operator-review-policy');

    const agreed = await captureIntoManualReview(live.server, tenant.backend, 5101);
    const disputed = await captureIntoManualReview(live.server, tenant.backend, 5102);
    const reviewers = [];
    for (const { key } of keys) {
      const r = await open('/console/review');
      await r.page.getByLabel('Reviewer API key').fill(key);
      await r.page.getByRole('button', { name: 'Sign in' }).click();
      await r.page.getByRole('heading', { name: 'Review queue' }).waitFor();
      reviewers.push(r);
    }
    const [one, two, three] = reviewers as [(typeof reviewers)[number], (typeof reviewers)[number], (typeof reviewers)[number]];
    const NOTE_LABEL = 'Note (why; at least 20 characters; Enter submits, Shift+Enter new line)';
    async function decide(page: Page, id: string, decision: 'Approve' | 'Decline', expected: string) {
      await page.goto(`${live.server.url}/console/review/${id}`);
      await page.getByLabel(decision).check();
      if (decision === 'Decline') await page.getByLabel('Face does not match the document').check();
      await page.getByLabel(NOTE_LABEL).fill('Compared the portrait with every frame by hand.');
      await page.getByRole('button', { name: 'Submit decision' }).click();
      await page.getByText(expected).waitFor();
    }
    const short = (id: string) => id.slice(0, 8);
    const status = async (id: string) =>
      (await api(live.server).call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json().status;

    // Agreement: the first decision waits, the same key cannot decide again, the second key's agreement is final.
    await decide(one.page, agreed.id, 'Approve', `Case ${short(agreed.id)}: you approved; another reviewer decides next.`);
    expect(await status(agreed.id)).toBe('manual_review');
    await one.page.goto(`${live.server.url}/console/review`);
    await one.page
      .getByRole('row', { name: new RegExp(short(agreed.id)) })
      .getByText('awaiting a second review')
      .waitFor();
    await look(one.page, 'reviewer-four-eyes-queue');
    await one.page.goto(`${live.server.url}/console/review/${agreed.id}`);
    await one.page.getByText('You already decided this case').waitFor();
    expect(await one.page.getByRole('button', { name: 'Submit decision' }).count()).toBe(0);
    await look(one.page, 'reviewer-four-eyes-decided-by-you');
    await two.page.goto(`${live.server.url}/console/review/${agreed.id}`);
    await two.page.getByTestId('review-standing').getByText('Awaiting a second review').waitFor();
    await two.page.getByText(`reviewer:${firstKeyId}`).first().waitFor();
    await look(two.page, 'reviewer-four-eyes-awaiting-second');
    await decide(two.page, agreed.id, 'Approve', `Case ${short(agreed.id)}: approved.`);
    expect(await status(agreed.id)).toBe('approved');

    // Disagreement: it stays in the queue, and the third key's decision is final.
    await decide(one.page, disputed.id, 'Approve', `Case ${short(disputed.id)}: you approved; another reviewer decides next.`);
    await decide(two.page, disputed.id, 'Decline', `Case ${short(disputed.id)}: you declined; another reviewer decides next.`);
    expect(await status(disputed.id)).toBe('manual_review');
    await three.page.goto(`${live.server.url}/console/review`);
    await three.page
      .getByRole('row', { name: new RegExp(short(disputed.id)) })
      .getByText('reviewers disagree')
      .waitFor();
    await three.page.goto(`${live.server.url}/console/review/${disputed.id}`);
    await three.page.getByTestId('review-standing').getByText('Reviewers disagree').waitFor();
    // The decline's reason is shown with it, in words.
    await three.page.getByText(/declined at .* — Face does not match the document/).waitFor();
    await look(three.page, 'reviewer-four-eyes-disagreement');
    await decide(three.page, disputed.id, 'Decline', `Case ${short(disputed.id)}: declined.`);
    expect(await status(disputed.id)).toBe('declined');
    for (const r of [operator, ...reviewers]) expect(r.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  }, 180_000);

  it('reads well on a phone', { timeout: 60_000 }, async () => {
    const { page } = await open('/console/', PHONE);
    await page.getByRole('link', { name: /Reviewer/ }).waitFor();
    await look(page, 'phone-start');
    const width = () => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
    expect(await width()).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole('link', { name: /Operator/ }).click();
    await page.getByLabel('Operator token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Profiles', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Acme Events' }).first().click();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    await look(page, 'phone-operator-webhooks');
    // Wide tables scroll inside themselves; the page itself does not scroll sideways.
    expect(await width()).toBeLessThanOrEqual(PHONE.width);
    // The endpoint list is one card per endpoint: its URL gets most of the width (it used to
    // get a column a few characters wide, one line per four characters), and every action
    // button is on the screen.
    const lineHeightOf = (el: unknown) => parseFloat((globalThis as any).getComputedStyle(el).lineHeight);
    const lines = async (text: Locator) => Math.round((await text.boundingBox())!.height / (await text.evaluate(lineHeightOf)));
    const endpoints = page.getByRole('table', { name: 'Webhook endpoints' });
    const url = endpoints.getByText('https://127.0.0.1:9/hooks');
    expect((await url.boundingBox())!.width).toBeGreaterThan(PHONE.width / 2);
    expect(await lines(url)).toBeLessThanOrEqual(2);
    for (const name of ['Send test event to', 'Rotate secret of', 'Disable']) {
      const button = await endpoints.getByRole('button', { name: `${name} https://127.0.0.1:9/hooks`, exact: true }).boundingBox();
      expect(button!.x).toBeGreaterThanOrEqual(0);
      expect(button!.x + button!.width).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await lines(page.getByRole('table', { name: 'Delivery log' }).getByText('webhook.test').first())).toBe(1);
  });
});
