// The web app's actions in a real browser (issue 20, Tests): Debian's Chromium on a real `svc
// serve --allow-local-targets` with its demo workspace and a webhook receiver of the test's own on
// 127.0.0.1. Resend a failed delivery from the inspector and see the new attempt; sign an
// estimate on its view_url and receive `estimate.signed`, signed with the subscription's secret;
// pay a sent invoice on its payment_url and see the job's balance move.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { browserAvailable, launchChromium, watchedPage } from '../support/browser';
import { Receiver, verify } from '../support/receiver';
import { bannerKeys, cleanup, http, type Server, startServe, tempDir } from '../support/spawn';

// Skipped where Debian's Chromium is not installed; .ci/run installs it and requires it.
const browser = browserAvailable;
/** Every wait is bounded: a page that never shows what it should fails the test in seconds. */
const WAIT = { timeout: 5_000 };

let svc: Server;
let chrome: Browser;
let receiver: Receiver;
let key: string;
/** What went wrong on the pages of the current test: dialogs, console errors, failed loads. */
const problems: string[] = [];

beforeAll(async () => {
  if (!browser) {
    return;
  }
  svc = await startServe(join(await tempDir(), 'data.json'), ['--allow-local-targets']);
  const keys = bannerKeys(svc.stdout());
  if (!keys) {
    throw new Error(`svc serve printed no demo keys:\n${svc.stdout()}`);
  }
  key = keys.write;
  receiver = await Receiver.start();
  chrome = await launchChromium();
}, 30_000);

afterAll(async () => {
  await chrome?.close();
  await receiver?.close();
  await svc?.stop();
  await cleanup();
});

afterEach(() => {
  const seen = [...problems];
  problems.length = 0;
  expect(seen, 'dialogs, console errors or failed loads on the pages').toEqual([]);
});

const watched = (): Promise<Page> => watchedPage(chrome, problems);

async function api(method: string, path: string, body?: unknown, status = 200) {
  const res = await http(`${svc.url}${path}`, { method, key, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

/** A demo job with a homeowner: estimates and invoices go on it. */
async function homeownerJob(): Promise<{ id: string; balance_due: number }> {
  const jobs = await api('GET', '/v1/jobs?limit=50');
  const job = jobs.data.find((j: { homeowner_id: string | null }) => j.homeowner_id !== null);
  expect(job, 'a demo job with a homeowner').toBeDefined();
  return job;
}

/** The subscription's deliveries as the control API logs them, newest first. */
const deliveries = async (hookId: string) =>
  (await http(`${svc.url}/__admin/webhooks/${hookId}/deliveries`)).body.data as {
    id: string;
    attempts: { status_code: number | null }[];
  }[];

test.skipIf(!browser)(
  'Resend on a subscription’s page sends the failed delivery again and the page shows the new attempt',
  async () => {
    const from = receiver.received.length;
    receiver.answer((_req, n) => (n === from + 1 ? 500 : 200));
    const hook = await api(
      'POST',
      '/v1/webhooks',
      { target_url: receiver.url, event: 'contact.created' },
      201,
    );
    await api('POST', '/v1/contacts', { first_name: 'Resend', last_name: 'Me' }, 201);
    await receiver.waitFor(from + 1);
    // svc logs the attempt once the receiver's answer is in
    await expect
      .poll(async () => (await deliveries(hook.id))[0]?.attempts[0]?.status_code, WAIT)
      .toBe(500);

    const page = await watched();
    await page.goto(`${svc.url}/inspector/webhooks/${hook.id}`);
    const sections = page.locator('section.delivery');
    expect(await sections.count()).toBe(1);
    expect(await sections.first().locator('table.attempts .badge').first().textContent()).toBe(
      '500',
    );
    await Promise.all([
      page.waitForURL(/\/inspector\/webhooks\/[^/]+\?flash=/, WAIT),
      sections.first().locator('form[action$="/resend"] button').click(),
    ]);
    await receiver.waitFor(from + 2);
    const sent = receiver.received[from + 1];
    expect(
      verify(hook.secret, sent?.headers['x-service-signature'] as string, sent?.body ?? ''),
    ).toBe(true);
    // the resend is a new delivery, newest first, whose attempt the receiver answered 200
    expect(await sections.count()).toBe(2);
    expect(await sections.first().locator('table.attempts .badge').first().textContent()).toBe(
      '200',
    );
    expect(await page.locator('.notice, .flash').first().textContent()).toContain('Resent');
    const log = await deliveries(hook.id);
    expect(log[0]?.attempts.map((a) => a.status_code)).toEqual([200]);
    await page.close();
  },
  30_000,
);

test.skipIf(!browser)(
  'an estimate signed on its view_url with a package and a typed name raises estimate.signed, delivered with a valid signature',
  async () => {
    const job = await homeownerJob();
    const hook = await api(
      'POST',
      '/v1/webhooks',
      { target_url: receiver.url, event: 'estimate.signed' },
      201,
    );
    receiver.answer(() => 200);
    const from = receiver.received.length;
    // a template whose estimates have packages to choose from
    let draft: { id: string; package_totals: unknown } | undefined;
    for (const t of (await api('GET', '/v1/estimate_templates')).data) {
      draft = await api('POST', '/v1/estimates', { job_id: job.id, template_id: t.id }, 201);
      if (draft?.package_totals !== null) {
        break;
      }
    }
    expect(draft?.package_totals, 'a seeded template with packages').not.toBeNull();
    const sent = (await http(`${svc.url}/__admin/estimates/${draft?.id}/send`, { method: 'POST' }))
      .body;
    expect(sent.view_url).toBe(`${svc.url}/view/estimates/${draft?.id}`);

    const page = await watched();
    await page.goto(sent.view_url);
    const tier = page.locator('input[name=selected_tier]').last();
    const chosen = await tier.getAttribute('value');
    await tier.check();
    await page.fill('input[name=signer_name]', 'Ada Lovelace');
    await page.click('form[action$="/sign"] button[type=submit]');
    // the page that answers the post thanks the signer and offers no second signature
    await page.locator('.notice.ok', { hasText: 'Signed by Ada Lovelace' }).waitFor(WAIT);
    expect(await page.locator('form[action$="/sign"]').count()).toBe(0);

    await receiver.waitFor(from + 1);
    const got = receiver.received[from];
    expect(got?.json.event_type).toBe('estimate.signed');
    expect(got?.headers['x-service-event']).toBe('estimate.signed');
    expect(
      verify(hook.secret, got?.headers['x-service-signature'] as string, got?.body ?? ''),
    ).toBe(true);
    const signed = await api('GET', `/v1/estimates/${draft?.id}`);
    expect(signed.status).toBe('signed');
    expect(signed.selected_tier).toBe(chosen);
    await page.close();
  },
  30_000,
);

test.skipIf(!browser)(
  'paying a sent invoice on its payment_url records an online payment and moves the job’s balance_due',
  async () => {
    const job = await homeownerJob();
    const draft = await api(
      'POST',
      '/v1/invoices',
      { job_id: job.id, line_items: [{ name: 'Gutter repair', unit_price: 640 }] },
      201,
    );
    const invoice = await api('POST', `/v1/invoices/${draft.id}/mark_sent`);
    expect(invoice.payment_url).toBe(`${svc.url}/pay/${draft.id}`);
    const before = (await api('GET', `/v1/jobs/${job.id}`)).balance_due;

    const page = await watched();
    await page.goto(invoice.payment_url);
    expect(await page.inputValue('input[name=amount]')).toBe('640.00');
    await page.fill('input[name=card_name]', 'Ada Lovelace');
    // post, then redirect to the receipt
    await Promise.all([
      page.waitForURL(/\/pay\/[^/?]+\?receipt=/, WAIT),
      page.click('form[action^="/pay/"] button[type=submit]'),
    ]);
    await expect
      .poll(async () => (await api('GET', `/v1/invoices/${draft.id}`)).status, WAIT)
      .toBe('paid');
    const after = (await api('GET', `/v1/jobs/${job.id}`)).balance_due;
    expect(after).toBeCloseTo(before - 640, 2);
    const payments = await api('GET', `/v1/jobs/${job.id}/payments?limit=100`);
    const online = payments.data.filter(
      (p: { invoice_id: string; online: boolean }) => p.invoice_id === draft.id && p.online,
    );
    expect(online).toHaveLength(1);
    // the receipt offers no second payment
    expect(await page.locator('form[action^="/pay/"]').count()).toBe(0);
    await page.close();
  },
  30_000,
);
