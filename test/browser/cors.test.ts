// A browser app on another origin calls svc: a page served on one port fetches /v1/ping from a
// real `svc serve` on another, in Chromium (Debian's, driven by playwright-core), and reads the
// answer's X-Request-Id, which CORS must expose.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { browserAvailable, launchChromium } from '../support/browser';
import { bannerKeys, cleanup, startServe, tempDir } from '../support/spawn';

// Skipped where Debian's Chromium is not installed; .ci/run installs it and requires it.
const browser = browserAvailable;

afterEach(cleanup);

/** A page on its own origin that calls `api` with `key` and reports what it could read. */
async function servePage(): Promise<{ origin: string; close: () => Promise<void> }> {
  const page = `<!doctype html><meta charset="utf-8"><title>app</title><script>
    window.call = async (api, key) => {
      const res = await fetch(api + '/v1/ping', { headers: { Authorization: 'Bearer ' + key } });
      const body = await res.json();
      return { status: res.status, requestId: res.headers.get('X-Request-Id'),
        remaining: res.headers.get('X-RateLimit-Remaining'), workspace: body.workspace_id };
    };
  </script>`;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test.skipIf(!browser)(
  'a page on another origin calls /v1/ping with a key and reads X-Request-Id',
  async () => {
    const dir = await tempDir();
    const svc = await startServe(join(dir, 'data.json')); // seeds the demo workspace
    const key = bannerKeys(svc.stdout())?.write;
    expect(key).toBeDefined();
    const app = await servePage();
    const chrome = await launchChromium();
    try {
      const page = await chrome.newPage();
      await page.goto(app.origin);
      const got = await page.evaluate(
        ([api, k]) =>
          (globalThis as unknown as { call: (a: string, k: string) => Promise<unknown> }).call(
            api,
            k,
          ),
        [svc.url, key as string] as const,
      );
      expect(got).toMatchObject({
        status: 200,
        requestId: expect.stringMatching(/^req_[0-9a-f]{24}$/),
        remaining: expect.stringMatching(/^\d+$/),
        workspace: expect.any(String),
      });
    } finally {
      await chrome.close();
      await app.close();
      await svc.stop();
    }
  },
  60_000,
);
