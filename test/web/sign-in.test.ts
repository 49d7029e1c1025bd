import { describe, expect, test } from 'vitest';
import { ok } from '../support/expect';
import { harness } from '../support/harness';

// Issue 37: with --admin-token, the inspector, the dashboard and the record pages ask for the
// token once (a form; an HttpOnly, SameSite cookie that never holds the token); the homeowner's
// pages, the consent page and /docs stay open. Without a token nothing changes.

const TOKEN = 'team-secret-admin-token';

const page = (h: ReturnType<typeof harness>, path: string, cookie?: string) =>
  h.request(path, { headers: cookie ? { Cookie: cookie } : {} });

async function signIn(h: ReturnType<typeof harness>, token: string, next = '/inspector') {
  return h.request('/sign-in', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, next }).toString(),
  });
}

/** A server with an admin token, a small workspace on it, and one of its jobs as GET shows it. */
async function sharedServer() {
  const h = harness({ rateLimit: null, adminToken: TOKEN });
  const headers = { Authorization: `Bearer ${TOKEN}` };
  const ws = await ok(h.admin.post('/workspaces', { profile: 'small' }, { headers }), 201);
  const job = (await ok(h.as(ws.keys.read.key).get('/jobs'))).data[0];
  return { h, ws, job };
}

describe('the web app with --admin-token', () => {
  test('the inspector, the dashboard and a record page ask for the token', async () => {
    const { h, ws, job } = await sharedServer();
    for (const path of ['/inspector', '/', `/workspaces/${ws.id}`, new URL(job.url).pathname]) {
      const res = await page(h, path);
      expect(res.status, path).toBe(401);
      const html = await res.text();
      expect(html).toContain('action="/sign-in"');
      expect(html).not.toContain(job.name);
    }
  });

  test("a homeowner's portal, /docs and the styles stay open", async () => {
    const { h, job } = await sharedServer();
    for (const path of [new URL(job.portal_url).pathname, '/docs', '/_app/style.css']) {
      expect((await page(h, path)).status, path).toBe(200);
    }
  });

  test('a wrong token is refused; the right one sets a cookie that opens every page', async () => {
    const h = harness({ rateLimit: null, adminToken: TOKEN });
    const wrong = await signIn(h, 'guess');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const right = await signIn(h, TOKEN, '/inspector/clock');
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/inspector/clock');
    const cookie = right.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(TOKEN);
    const pair = cookie.split(';')[0] ?? '';
    expect((await page(h, '/inspector', pair)).status).toBe(200);
    expect((await page(h, '/inspector', 'svc_admin=forged')).status).toBe(401);
  });

  test('sign-in sends nobody to another site, and never fails on what next holds', async () => {
    const h = harness({ rateLimit: null, adminToken: TOKEN });
    for (const next of [
      '//evil.example/',
      '/\\evil.example',
      'https://evil.example/',
      '/a\r\nX: 1',
      '/é',
    ]) {
      const res = await signIn(h, TOKEN, next);
      expect(res.status, next).toBe(303);
      expect(res.headers.get('location'), next).toBe('/');
    }
  });

  test('an address the control API lacks is its JSON 404, not the sign-in page', async () => {
    const h = harness({ rateLimit: null, adminToken: TOKEN });
    const res = await h.request('/__admin/nothing-here', {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});

describe('the web app without an admin token', () => {
  test('opens as before', async () => {
    const h = harness({ rateLimit: null });
    expect((await page(h, '/inspector')).status).toBe(200);
    expect((await page(h, '/')).status).toBe(200);
  });
});
