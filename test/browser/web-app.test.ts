// The web app in a real browser (issue 20, Tests): Debian's Chromium, driven by playwright-core,
// on a real `svc serve` with its seeded demo workspace. A person opens the dashboard and follows
// to a job's page from the API's own `url`, watches a call appear live in the request log,
// advances the clock with a button, and opens a contact named <script>alert(1)</script>. Every
// page is watched for dialogs, console errors and Content-Security-Policy violations.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { browserAvailable, launchChromium, watchedPage } from '../support/browser';
import { bannerKeys, cleanup, http, type Server, startServe, tempDir } from '../support/spawn';

// Skipped where Debian's Chromium is not installed; .ci/run installs it and requires it.
const browser = browserAvailable;
const XSS = '<script>alert(1)</script>';
/** Every wait is bounded: a page that never shows what it should fails the test in seconds. */
const WAIT = { timeout: 5_000 };

let svc: Server;
let chrome: Browser;
let key: string;
let workspaceId: string;
/** What went wrong on the pages of the current test: dialogs, console errors, CSP violations. */
const problems: string[] = [];

beforeAll(async () => {
  if (!browser) {
    return;
  }
  svc = await startServe(join(await tempDir(), 'data.json')); // seeds the demo workspace
  const keys = bannerKeys(svc.stdout());
  if (!keys) {
    throw new Error(`svc serve printed no demo keys:\n${svc.stdout()}`);
  }
  key = keys.write;
  workspaceId = (await http(`${svc.url}/v1/ping`, { key })).body.workspace_id;
  chrome = await launchChromium();
}, 30_000);

afterAll(async () => {
  await chrome?.close();
  await svc?.stop();
  await cleanup();
});

afterEach(() => {
  const seen = [...problems];
  problems.length = 0;
  expect(seen, 'dialogs, console errors or CSP violations on the pages').toEqual([]);
});

const watched = (): Promise<Page> => watchedPage(chrome, problems);

const bodyText = (page: Page): Promise<string> => page.evaluate('document.body.innerText');

test.skipIf(!browser)(
  'the dashboard leads to the workspace, and a job’s url from GET /v1/jobs opens a page with its name',
  async () => {
    const page = await watched();
    await page.goto(`${svc.url}/`);
    const name = (await http(`${svc.url}/__admin/workspaces`)).body.data.find(
      (w: { id: string }) => w.id === workspaceId,
    ).name;
    await Promise.all([
      page.waitForURL(`${svc.url}/workspaces/${workspaceId}`, WAIT),
      page.click(`a[href="/workspaces/${workspaceId}"]`),
    ]);
    expect(await page.textContent('h1')).toContain(name);
    expect(await page.locator('a[href^="/jobs/"]').count()).toBeGreaterThan(0);

    const jobs = await http(`${svc.url}/v1/jobs?limit=5`, { key });
    const job = jobs.body.data[0];
    expect(job.url).toBe(`${svc.url}/jobs/${job.id}`);
    const res = await page.goto(job.url);
    expect(res?.status()).toBe(200);
    expect(await page.textContent('h1')).toContain(job.name);
    expect(await bodyText(page)).toContain(job.job_number);
    await page.close();
  },
  30_000,
);

test.skipIf(!browser)(
  'a call made after the request log opened appears in it live, without a reload',
  async () => {
    const page = await watched();
    await page.goto(`${svc.url}/inspector/requests`);
    // The stream is open once the badge says live: a call made now is one the page must get.
    await page.waitForSelector('[data-live-state]:text("live")', WAIT);
    await page.evaluate('window.notReloaded = true');
    const target = '/v1/contacts?limit=7';
    expect((await http(`${svc.url}${target}`, { key })).status).toBe(200);
    const row = page.locator('#request-rows tr.fresh', { hasText: target });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain('GET');
    expect(await row.locator('.badge').textContent()).toBe('200');
    expect(await page.evaluate("'notReloaded' in window")).toBe(true);
    // the live row links to the call's own page, which shows it
    await Promise.all([
      page.waitForURL(/\/inspector\/requests\/rq_\d+$/, WAIT),
      row.locator('a').first().click(),
    ]);
    expect(await bodyText(page)).toContain(target);
    await page.close();
  },
  30_000,
);

test.skipIf(!browser)(
  'a contact named <script>alert(1)</script> shows as text on its page and the workspace page, and raises no dialog',
  async () => {
    const made = await http(`${svc.url}/v1/contacts`, {
      method: 'POST',
      key,
      body: { first_name: XSS, last_name: 'Tester', type: 'homeowner' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const page = await watched();
    await page.goto(made.body.url);
    expect(await page.textContent('h1')).toContain(XSS);
    await page.goto(`${svc.url}/workspaces/${workspaceId}`);
    expect(await bodyText(page)).toContain(XSS);
    // no script element came from the record: the text stayed text
    const scripts = await page.$$eval(
      'script',
      (all) => all.filter((s) => (s.textContent ?? '').includes('alert')).length,
    );
    expect(scripts).toBe(0);
    await page.close();
  },
  30_000,
);

test.skipIf(!browser)(
  'the main pages load with no console error and no CSP violation',
  async () => {
    const page = await watched();
    const job = (await http(`${svc.url}/v1/jobs?limit=1`, { key })).body.data[0];
    for (const path of [
      '/',
      `/workspaces/${workspaceId}`,
      new URL(job.url).pathname,
      new URL(job.portal_url).pathname,
      '/inspector',
      '/inspector/requests',
      '/inspector/webhooks',
      '/inspector/clock',
      '/docs',
      '/docs/errors',
      '/docs/signatures',
    ]) {
      const res = await page.goto(`${svc.url}${path}`, { waitUntil: 'load' });
      expect(res?.status(), path).toBe(200);
      expect(res?.headers()['content-security-policy'], path).toContain("script-src 'self'");
    }
    // swagger-ui draws the reference from /v1/openapi.json: it got through the CSP
    await page.goto(`${svc.url}/docs`);
    await page.waitForSelector('.opblock', WAIT);
    // the watch itself works: an inline script added now is refused and reported
    expect(problems).toEqual([]);
    await page.evaluate(`{
      const s = document.createElement('script');
      s.textContent = 'window.ranInline = true';
      document.body.append(s);
    }`);
    await expect.poll(() => problems.join('\n'), WAIT).toContain('CSP violation: script-src');
    expect(await page.evaluate("'ranInline' in window")).toBe(false);
    problems.length = 0;
    await page.close();
  },
  30_000,
);

// Last: the clock only moves forward, and a day later the other pages' records would have moved.
test.skipIf(!browser)(
  'Advance a day on /inspector/clock moves the clock a day and the page shows the new time',
  async () => {
    const page = await watched();
    await page.goto(`${svc.url}/inspector/clock`);
    const before = Date.parse((await page.textContent('#now')) ?? '');
    expect(Number.isNaN(before)).toBe(false);
    await Promise.all([
      // the action answers 303 to the clock page with a flash saying what moved
      page.waitForURL(/\/inspector\/clock\?flash=/, WAIT),
      page.click('form[action="/inspector/clock/advance/day"] button'),
    ]);
    const shown = Date.parse((await page.textContent('#now')) ?? '');
    expect(shown - before).toBeGreaterThanOrEqual(86_400_000);
    expect(shown - before).toBeLessThan(86_400_000 + 60_000);
    const now = Date.parse((await http(`${svc.url}/__admin/clock`)).body.now);
    expect(now).toBeGreaterThanOrEqual(shown);
    expect(await bodyText(page)).toContain('What fell due in the last move');
    await page.close();
  },
  30_000,
);
