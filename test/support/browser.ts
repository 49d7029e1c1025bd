import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

// Debian's Chromium, driven by playwright-core (never a downloaded browser). .ci/run installs it
// and sets SVC_REQUIRE_BROWSER=1, so there a missing browser fails the tests instead of skipping.
const CHROMIUM = '/usr/bin/chromium';

export const browserAvailable = existsSync(CHROMIUM) || process.env.SVC_REQUIRE_BROWSER === '1';

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

/**
 * A fresh 1280x800 page whose dialogs, console errors, failed loads (by address: Chromium's own
 * message names none), uncaught errors and CSP violations are pushed to `problems`.
 */
export async function watchedPage(browser: Browser, problems: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('dialog', (dialog) => {
    problems.push(`dialog (${dialog.type()}): ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (msg) => {
    // a failed load is reported by its address below
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) {
      problems.push(`console error on ${page.url()}: ${msg.text()}`);
    }
  });
  page.on('response', (res) => {
    // Every failed load counts, /favicon.ico's too: the layout names an icon so none is asked for.
    if (res.status() >= 400) {
      problems.push(`${res.status()} for ${res.url()} on ${page.url()}`);
    }
  });
  page.on('pageerror', (err) => problems.push(`uncaught on ${page.url()}: ${err.message}`));
  // An init script runs outside the page's CSP; it reports violations as console errors too.
  // (Scripts run in the page are strings: the tests are type-checked without the DOM's types.)
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) => {
      console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + e.blockedURI);
    });`,
  });
  return page;
}
