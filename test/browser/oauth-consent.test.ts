// The OAuth consent page in a real browser: Chromium (Debian's, driven by playwright-core) opens
// {app_url}/oauth/authorize on a real `svc serve`, the person picks a workspace and clicks Allow
// (or Deny), the 302 lands on an app's callback on 127.0.0.1, and the app trades the code and
// calls /v1/ping with the token.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { browserAvailable, launchChromium } from '../support/browser';
import { cleanup, http, startServe, tempDir } from '../support/spawn';

// Skipped where Debian's Chromium is not installed; .ci/run installs it and requires it.
const browser = browserAvailable;

afterEach(cleanup);

/** The app's callback: a page that only says it was reached (the test reads the address). */
async function serveCallback(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><meta charset="utf-8"><title>callback</title><p>back in the app');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const launch = launchChromium;

async function trade(
  svcUrl: string,
  app: { client_id: string; client_secret: string },
  code: string,
  redirectUri: string,
) {
  const res = await fetch(`${svcUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: app.client_id,
      client_secret: app.client_secret,
    }).toString(),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: (await res.json()) as { access_token?: string } };
}

test.skipIf(!browser)(
  'Allow on the consent page lands on the callback with code and state; the code trades for a token /v1/ping accepts; Deny lands with access_denied',
  async () => {
    const dir = await tempDir();
    const svc = await startServe(join(dir, 'data.json')); // seeds the demo workspace
    const callback = await serveCallback();
    const chrome = await launch();
    try {
      const registered = await http(`${svc.url}/__admin/oauth/apps`, {
        method: 'POST',
        body: { name: 'Roof <Tracker>', redirect_uris: [callback.url] },
      });
      expect(registered.status, JSON.stringify(registered.body)).toBe(201);
      const app = registered.body as { client_id: string; client_secret: string };
      const authorize = (state: string) =>
        `${svc.url}/oauth/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: app.client_id,
          redirect_uri: callback.url,
          state,
        })}`;

      const page = await chrome.newPage();
      const state = 'xyz 1/2&3';
      await page.goto(authorize(state));
      // the name shows as text, escaped, not as markup
      expect(await page.textContent('#app-name')).toBe('Roof <Tracker>');
      const radio = page.locator('input[name=workspace_id]').first();
      const workspaceId = await radio.getAttribute('value');
      await radio.check();
      await Promise.all([
        page.waitForURL((u) => u.href.startsWith(callback.url)),
        page.click('button[value=allow]'),
      ]);
      const landed = new URL(page.url());
      expect(landed.searchParams.get('state')).toBe(state);
      const code = landed.searchParams.get('code') ?? '';
      expect(code).toMatch(/^svc_oac_/);

      const token = await trade(svc.url, app, code, callback.url);
      expect(token.status, JSON.stringify(token.body)).toBe(200);
      const ping = await http(`${svc.url}/v1/ping`, { key: token.body.access_token as string });
      expect(ping.status, JSON.stringify(ping.body)).toBe(200);
      expect(ping.body.workspace_id).toBe(workspaceId);

      await page.goto(authorize('deny-me'));
      await Promise.all([
        page.waitForURL((u) => u.href.startsWith(callback.url)),
        page.click('button[value=deny]'),
      ]);
      const denied = new URL(page.url());
      expect(denied.searchParams.get('error')).toBe('access_denied');
      expect(denied.searchParams.get('state')).toBe('deny-me');
      expect(denied.searchParams.get('code')).toBeNull();
    } finally {
      await chrome.close();
      await callback.close();
      await svc.stop();
    }
  },
  60_000,
);

test.skipIf(!browser)(
  'a page on another origin cannot show the consent page in a frame',
  async () => {
    const dir = await tempDir();
    const svc = await startServe(join(dir, 'data.json'));
    const callback = await serveCallback();
    const chrome = await launch();
    try {
      const registered = await http(`${svc.url}/__admin/oauth/apps`, {
        method: 'POST',
        body: { name: 'Framed', redirect_uris: [callback.url] },
      });
      expect(registered.status).toBe(201);
      const authorize = `${svc.url}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: registered.body.client_id,
        redirect_uri: callback.url,
        state: 's',
      })}`;
      const page = await chrome.newPage();
      // the callback server's origin stands for an attacker's page
      await page.goto(callback.url);
      // 'load' waits for the frame too, blocked or not
      await page.setContent(`<iframe id="f" src="${authorize}"></iframe>`, { waitUntil: 'load' });
      expect(page.frames()).toHaveLength(2);
      // Chromium blocks it: the frame holds an error page, not the consent page and its Allow
      const frame = page.frames()[1];
      const allow = await frame?.$('button[value=allow]');
      expect(allow).toBeNull();
    } finally {
      await chrome.close();
      await callback.close();
      await svc.stop();
    }
  },
  60_000,
);
