import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

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
