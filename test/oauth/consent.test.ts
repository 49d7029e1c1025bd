import { describe, expect, test } from 'vitest';
import { ok } from '../support/expect';
import { hiddenFields } from '../support/forms';
import { type Harness, harness, type Json } from '../support/harness';

// The consent page, GET and POST {app_url}/oauth/authorize: spec, Authentication 5 and ### OAuth;
// DESIGN.md, the consent page (the form's fields); decisions.md, OAuth consent page.

const CALLBACK = 'http://127.0.0.1:9/callback?app=1&x=a%20b';
const OTHER_CALLBACK = 'http://127.0.0.1:9/other';

interface Setup {
  h: Harness;
  clientId: string;
  clientSecret: string;
}

async function setup(name = 'Roof Tracker'): Promise<Setup> {
  const h = harness({ rateLimit: null });
  const app = await ok(
    h.admin.post('/oauth/apps', { name, redirect_uris: [CALLBACK, OTHER_CALLBACK] }),
    201,
  );
  return { h, clientId: app.client_id, clientSecret: app.client_secret };
}

const authorizeQuery = (s: Setup, extra: Record<string, string | undefined> = {}) => {
  const q: Record<string, string> = {};
  const all = {
    response_type: 'code',
    client_id: s.clientId,
    redirect_uri: CALLBACK,
    state: 'st-1',
    ...extra,
  };
  for (const [k, v] of Object.entries(all)) {
    if (v !== undefined) {
      q[k] = v;
    }
  }
  return new URLSearchParams(q).toString();
};

async function page(s: Setup, extra: Record<string, string | undefined> = {}) {
  const res = await s.h.app.request(`/oauth/authorize?${authorizeQuery(s, extra)}`);
  return { res, html: await res.text() };
}

const radios = (html: string) =>
  [...html.matchAll(/<input type="radio" name="workspace_id" value="([^"]+)"/g)].map((m) => m[1]);

async function post(h: Harness, fields: Record<string, string>) {
  const res = await h.app.request('/oauth/authorize', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { res, html: await res.text() };
}

/** The page for `extra`, then its form posted with the person's choice. */
async function answer(
  s: Setup,
  choice: Record<string, string>,
  extra: Record<string, string | undefined> = {},
) {
  const shown = await page(s, extra);
  expect(shown.res.status, shown.html).toBe(200);
  return post(s.h, { ...hiddenFields(shown.html), ...choice });
}

function expectErrorPage(res: Response, html: string, status: number, says: RegExp) {
  expect(res.status, html).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('location')).toBeNull();
  expect(html).toMatch(says);
}

async function trade(s: Setup, code: string, redirectUri = CALLBACK) {
  const res = await s.h.app.request('/v1/oauth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: s.clientId,
      client_secret: s.clientSecret,
    }).toString(),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

describe('GET /oauth/authorize shows the consent page', () => {
  test('names the app and asks to read and write when no scope is given', async () => {
    const s = await setup();
    const { res, html } = await page(s);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toContain('<span id="app-name">Roof Tracker</span>');
    expect(html).toMatch(/data-scope="write">It asks to read and change/);
    expect(hiddenFields(html)).toMatchObject({
      client_id: s.clientId,
      redirect_uri: CALLBACK,
      state: 'st-1',
      scope: 'write',
      page_token: expect.any(String),
    });
  });

  test('scope=read asks only to read; scope=write to read and change', async () => {
    const s = await setup();
    const read = await page(s, { scope: 'read' });
    expect(read.html).toMatch(/data-scope="read">It asks to read .*without changing them/);
    expect(hiddenFields(read.html).scope).toBe('read');
    const write = await page(s, { scope: 'write' });
    expect(write.html).toMatch(/data-scope="write">It asks to read and change/);
  });

  test('lists every workspace, each as a radio button with its name', async () => {
    const s = await setup();
    const a = await s.h.workspace({ name: 'Acme Roofing' });
    const b = await s.h.workspace({ name: 'Bolt Exteriors' });
    const { html } = await page(s);
    expect(radios(html).sort()).toEqual([a.id, b.id].sort());
    expect(html).toContain('Acme Roofing</label>');
    expect(html).toContain('Bolt Exteriors</label>');
  });

  test('with no workspace at all, Allow is disabled and Deny still works', async () => {
    const s = await setup();
    const { html } = await page(s);
    expect(radios(html)).toEqual([]);
    expect(html).toMatch(/value="allow" disabled>Allow/);
    const denied = await post(s.h, { ...hiddenFields(html), decision: 'deny' });
    expect(denied.res.status).toBe(302);
  });

  test('an unknown client_id is an error page, not a redirect', async () => {
    const s = await setup();
    const { res, html } = await page(s, { client_id: 'no-such-app' });
    expectErrorPage(res, html, 400, /Unknown app/);
    const missing = await page(s, { client_id: undefined });
    expectErrorPage(missing.res, missing.html, 400, /Unknown app/);
  });

  test.each([
    ['a trailing slash', 'http://127.0.0.1:9/other/'],
    ['another case', 'http://127.0.0.1:9/OTHER'],
    ['an extra query', 'http://127.0.0.1:9/other?x=1'],
    ['the registered query left out', 'http://127.0.0.1:9/callback'],
    ['another host', 'http://evil.example/callback?app=1&x=a%20b'],
  ])('a redirect_uri not registered exactly (%s) is an error page', async (_why, uri) => {
    const s = await setup();
    const { res, html } = await page(s, { redirect_uri: uri });
    expectErrorPage(res, html, 400, /Wrong redirect address/);
  });

  test('a missing redirect_uri is an error page', async () => {
    const s = await setup();
    const { res, html } = await page(s, { redirect_uri: undefined });
    expectErrorPage(res, html, 400, /Wrong redirect address/);
  });

  test.each([
    ['missing', undefined],
    ['token', 'token'],
    ['CODE', 'CODE'],
  ])('response_type %s is an error page', async (_why, responseType) => {
    const s = await setup();
    const { res, html } = await page(s, { response_type: responseType });
    expectErrorPage(res, html, 400, /response_type must be code/);
  });

  test.each(['admin', 'read write', 'READ'])('scope %s is an error page', async (scope) => {
    const s = await setup();
    const { res, html } = await page(s, { scope });
    expectErrorPage(res, html, 400, /scope must be read or write/);
  });

  test('a missing or empty state is an error page', async () => {
    const s = await setup();
    for (const state of [undefined, '']) {
      const { res, html } = await page(s, { state });
      expectErrorPage(res, html, 400, /state is required/);
    }
  });

  test('a parameter given twice is refused', async () => {
    const s = await setup();
    const res = await s.h.app.request(`/oauth/authorize?${authorizeQuery(s)}&state=again`);
    expectErrorPage(res, await res.text(), 400, /state is required/);
  });

  test('everything shown is escaped: an app named <script> shows as text', async () => {
    const s = await setup('<script>alert("app")</script>');
    await s.h.workspace({ name: '<img src=x onerror=alert(1)>' });
    const state = "\"><script>alert('state')</script>";
    const { html } = await page(s, { state });
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;app&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(hiddenFields(html).state).toBe(state);
  });

  test('the error page escapes the app name it repeats', async () => {
    const s = await setup('<b>bold</b>');
    const { html } = await page(s, { redirect_uri: 'http://127.0.0.1:9/nope' });
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
  });

  test('the page and the error page cannot be framed, are not cached, load nothing from elsewhere', async () => {
    const s = await setup();
    await s.h.workspace({ name: 'Acme Roofing' });
    for (const { res, html } of [await page(s), await page(s, { client_id: 'nope' })]) {
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toMatch(/https?:|\*/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      // the one inline style carries the nonce the policy allows; nothing is fetched
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(html).toContain(`<style nonce="${nonce}">`);
      // (an empty data: icon is named, so the browser asks for no /favicon.ico)
      expect(html).not.toMatch(/\b(src|href)="(?!data:)/);
    }
  });
});

describe('POST /oauth/authorize answers the person’s choice', () => {
  test('allow with a workspace: 302 to redirect_uri with code and state, its own query kept', async () => {
    const s = await setup();
    const ws = await s.h.workspace({ name: 'Acme Roofing' });
    const { res } = await answer(s, { decision: 'allow', workspace_id: ws.id });
    expect(res.status).toBe(302);
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?app=1&x=a%20b&code=svc_oac_/);
    const url = new URL(location);
    expect(url.searchParams.get('state')).toBe('st-1');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  test('the code trades for a token of the workspace picked, with the scope asked', async () => {
    const s = await setup();
    await s.h.workspace({ name: 'Acme Roofing' });
    const ws = await s.h.workspace({ name: 'Bolt Exteriors' });
    for (const scope of ['read', 'write'] as const) {
      const { res } = await answer(s, { decision: 'allow', workspace_id: ws.id }, { scope });
      const code = new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
      const token = await trade(s, code);
      expect(token.status, JSON.stringify(token.body)).toBe(200);
      expect(token.body).toMatchObject({ scope, workspace_id: ws.id });
      const ping = await s.h.as(token.body.access_token).get('/ping');
      expect(ping.status, ping.text).toBe(200);
      expect(ping.body.workspace_id).toBe(ws.id);
    }
  });

  test('deny: 302 to redirect_uri with error=access_denied and state, and no code', async () => {
    const s = await setup();
    await s.h.workspace();
    const { res } = await answer(s, { decision: 'deny' });
    expect(res.status).toBe(302);
    const location = res.headers.get('location') ?? '';
    expect(location).toBe(
      'http://127.0.0.1:9/callback?app=1&x=a%20b&error=access_denied&state=st-1',
    );
  });

  test('state comes back exactly, URL-encoded', async () => {
    const s = await setup();
    const ws = await s.h.workspace();
    const state = 'a b&c=d?e#f+g/é%20"<>';
    const allowed = await answer(s, { decision: 'allow', workspace_id: ws.id }, { state });
    const allowUrl = new URL(allowed.res.headers.get('location') ?? '');
    expect(allowUrl.hash).toBe('');
    expect(allowUrl.searchParams.get('state')).toBe(state);
    const denied = await answer(s, { decision: 'deny' }, { state });
    const location = denied.res.headers.get('location') ?? '';
    expect(location.endsWith(`&state=${encodeURIComponent(state)}`)).toBe(true);
  });

  test('a post without the page token is refused with a 403 page', async () => {
    const s = await setup();
    const ws = await s.h.workspace();
    const shown = await page(s);
    const { page_token: _, ...fields } = hiddenFields(shown.html);
    const { res, html } = await post(s.h, { ...fields, decision: 'allow', workspace_id: ws.id });
    expectErrorPage(res, html, 403, /did not come from the consent page/);
    const garbled = await post(s.h, {
      ...fields,
      page_token: 'garbage',
      decision: 'allow',
      workspace_id: ws.id,
    });
    expectErrorPage(garbled.res, garbled.html, 403, /did not come from the consent page/);
  });

  test.each([
    ['state', { state: 'another' }],
    ['scope', { scope: 'read' }],
    ['redirect_uri', { redirect_uri: OTHER_CALLBACK }],
  ])('a page token from a page that showed another %s is refused', async (_what, other) => {
    const s = await setup();
    const ws = await s.h.workspace();
    const mine = hiddenFields((await page(s)).html);
    const theirs = hiddenFields((await page(s, other)).html);
    const { res, html } = await post(s.h, {
      ...mine,
      page_token: theirs.page_token as string,
      decision: 'allow',
      workspace_id: ws.id,
    });
    expectErrorPage(res, html, 403, /did not come from the consent page/);
  });

  test('a page token from another app’s page is refused', async () => {
    const s = await setup();
    await s.h.workspace();
    const other = await ok(
      s.h.admin.post('/oauth/apps', { name: 'Other', redirect_uris: [CALLBACK] }),
      201,
    );
    const theirs = hiddenFields((await page(s, { client_id: other.client_id })).html);
    const mine = hiddenFields((await page(s)).html);
    const { res } = await post(s.h, {
      ...mine,
      page_token: theirs.page_token as string,
      decision: 'deny',
    });
    expect(res.status).toBe(403);
  });

  test('a page token works for 30 minutes on the clock, and not after', async () => {
    const s = await setup();
    const ws = await s.h.workspace();
    const fields = hiddenFields((await page(s)).html);
    await ok(s.h.admin.post('/clock', { advance_seconds: 29 * 60 }));
    const inTime = await post(s.h, { ...fields, decision: 'allow', workspace_id: ws.id });
    expect(inTime.res.status).toBe(302);
    await ok(s.h.admin.post('/clock', { advance_seconds: 2 * 60 }));
    const late = await post(s.h, { ...fields, decision: 'allow', workspace_id: ws.id });
    expectErrorPage(late.res, late.html, 403, /has expired/);
  });

  test('an unknown or missing workspace_id with allow is a 400 page and no code', async () => {
    const s = await setup();
    await s.h.workspace();
    const choices: Record<string, string>[] = [
      { decision: 'allow', workspace_id: '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11' },
      { decision: 'allow' },
    ];
    for (const choice of choices) {
      const { res, html } = await answer(s, choice);
      expectErrorPage(res, html, 400, /Pick one of the workspaces listed/);
    }
  });

  test('a decision other than allow or deny is a 400 page', async () => {
    const s = await setup();
    const ws = await s.h.workspace();
    for (const decision of [undefined, 'maybe', 'ALLOW']) {
      const choice: Record<string, string> = { workspace_id: ws.id };
      if (decision !== undefined) {
        choice.decision = decision;
      }
      const { res, html } = await answer(s, choice);
      expectErrorPage(res, html, 400, /decision must be allow or deny/);
    }
  });

  test('a post naming an unknown app or an unregistered redirect_uri is an error page, never a redirect', async () => {
    const s = await setup();
    const ws = await s.h.workspace();
    const fields = hiddenFields((await page(s)).html);
    const choice = { decision: 'allow', workspace_id: ws.id };
    const unknown = await post(s.h, { ...fields, ...choice, client_id: 'nope' });
    expectErrorPage(unknown.res, unknown.html, 400, /Unknown app/);
    const elsewhere = await post(s.h, {
      ...fields,
      ...choice,
      redirect_uri: 'http://evil.example/cb',
    });
    expectErrorPage(elsewhere.res, elsewhere.html, 400, /Wrong redirect address/);
  });

  test('a body that is no form reads as an empty form: an error page, never a redirect', async () => {
    const s = await setup();
    const res = await s.h.app.request('/oauth/authorize', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: s.clientId }),
    });
    expectErrorPage(res, await res.text(), 400, /Unknown app/);
  });

  test('a form over 64 KiB is refused with a 413 page before it is read', async () => {
    const s = await setup();
    const fields = hiddenFields((await page(s)).html);
    const { res, html } = await post(s.h, {
      ...fields,
      decision: 'deny',
      pad: 'x'.repeat(65 * 1024),
    });
    expectErrorPage(res, html, 413, /too large/);
  });

  test('a multipart body that cannot be parsed is a 400 page', async () => {
    const s = await setup();
    const res = await s.h.app.request('/oauth/authorize', {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=zzz' },
      body: 'this is not multipart at all',
    });
    expectErrorPage(res, await res.text(), 400, /could not be read/);
  });
});
