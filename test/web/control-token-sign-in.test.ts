import { describe, expect, test } from 'vitest';
import { ok } from '../support/expect';
import { type Harness, harness } from '../support/harness';

// Issue 37: the inspector signed in with a workspace's control token shows that workspace alone.
// Its pages (the inspector's, the record pages, the lists filtered to it) open; another
// workspace's, and the whole server's (its clock, making workspaces), answer 403; its forms act as
// the token does on the control API.

const TOKEN = 'team-secret-admin-token';
const admin = { headers: { Authorization: `Bearer ${TOKEN}` } };

async function makeWorkspace(h: Harness, name: string) {
  const ws = await ok(h.admin.post('/workspaces', { profile: 'small', name }, admin), 201);
  const api = h.as(ws.keys.write.key);
  const job = (await ok(api.get('/jobs'))).data[0];
  const pin = await ok(api.post('/pins', { latitude: 32.9, longitude: -97.1 }), 201);
  const hook = await ok(
    api.post('/webhooks', { event: 'job.created', target_url: 'https://hooks.example/in' }),
    201,
  );
  return { ...ws, api, job, pin, hook } as typeof ws & {
    api: typeof api;
    job: { id: string; name: string; url: string };
    pin: { id: string };
    hook: { id: string };
  };
}

async function signIn(h: Harness, token: string, next = '/inspector') {
  return h.request('/sign-in', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, next }).toString(),
  });
}

/** A shared server with workspaces A and B, and a browser signed in with A's control token. */
async function signedInAsA() {
  const h = harness({ rateLimit: null, adminToken: TOKEN });
  const a = await makeWorkspace(h, 'Alpha Roofing');
  const b = await makeWorkspace(h, 'Bravo Exteriors');
  const res = await signIn(h, a.control_token);
  expect(res.status).toBe(303);
  const setCookie = res.headers.get('set-cookie') ?? '';
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).not.toContain(a.control_token);
  const cookie = setCookie.split(';')[0] ?? '';
  const open = async (path: string, init: RequestInit = {}) => {
    const r = await h.request(path, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), Cookie: cookie },
    });
    return { status: r.status, html: await r.text() };
  };
  return { h, a, b, cookie, open };
}

const formToken = (html: string, action: string): string => {
  const at = html.indexOf(`action="${action}"`);
  expect(at, `no form posts to ${action}`).toBeGreaterThan(-1);
  return /name="token" value="([^"]+)"/.exec(html.slice(at))?.[1] ?? '';
};

const pathOf = (url: string) => new URL(url).pathname;

describe('the web app signed in with a control token', () => {
  test('the workspace lists show its own workspace alone, without the forms of the whole server', async () => {
    const { a, b, open } = await signedInAsA();
    for (const path of ['/', '/inspector', '/inspector/webhooks', '/inspector/faults']) {
      const page = await open(path);
      expect(page.status, path).toBe(200);
      expect(page.html, path).toContain(a.name);
      expect(page.html, path).not.toContain(b.name);
    }
    const list = await open('/inspector');
    expect(list.html).not.toContain('action="/inspector/workspaces"');
    expect(list.html).not.toContain('action="/inspector/oauth-apps"');
    expect(list.html).not.toContain('href="/inspector/clock"');
  });

  test("its own workspace's pages open; another workspace's and the whole server's answer 403", async () => {
    const { a, b, open } = await signedInAsA();
    const own = [
      `/workspaces/${a.id}`,
      `/inspector/workspaces/${a.id}`,
      pathOf(a.job.url),
      `/pins/${a.pin.id}`,
      `/map?pin=${a.pin.id}`,
      `/inspector/webhooks/${a.hook.id}`,
    ];
    for (const path of own) {
      const page = await open(path);
      expect(page.status, path).toBe(200);
      expect(page.html, path).not.toContain(b.name);
    }
    const others = [
      `/workspaces/${b.id}`,
      `/inspector/workspaces/${b.id}`,
      pathOf(b.job.url),
      `/pins/${b.pin.id}`,
      `/map?pin=${b.pin.id}`,
      `/inspector/webhooks/${b.hook.id}`,
      `/inspector/webhooks?workspace_id=${b.id}`,
      `/inspector/requests?workspace_id=${b.id}`,
      '/inspector/clock',
    ];
    for (const path of others) {
      const page = await open(path);
      expect(page.status, path).toBe(403);
      expect(page.html, path).not.toContain(b.name);
      expect(page.html, path).not.toContain(b.job.name);
    }
    const made = await open('/inspector/workspaces', { method: 'POST' });
    expect(made.status).toBe(403);
  });

  test("the request log shows its own workspace's calls alone, and another's call is not there", async () => {
    const { h, a, b, open } = await signedInAsA();
    await a.api.get('/jobs', { query: { limit: 3 } });
    await b.api.get('/contacts', { query: { limit: 4 } });
    const list = await open('/inspector/requests');
    expect(list.status).toBe(200);
    expect(list.html).toContain('/v1/jobs?limit=3');
    expect(list.html).not.toContain('/v1/contacts?limit=4');
    const logged = await h.admin.get('/requests', admin);
    const theirs = logged.body.data.find(
      (e: { workspace_id: string }) => e.workspace_id === b.id,
    ) as { id: string };
    const ours = logged.body.data.find(
      (e: { workspace_id: string }) => e.workspace_id === a.id,
    ) as { id: string };
    expect((await open(`/inspector/requests/${ours.id}`)).status).toBe(200);
    expect((await open(`/inspector/requests/${theirs.id}`)).status).toBe(404);
  });

  test("a fault added from its faults page matches its own workspace; clearing leaves another's", async () => {
    const { h, a, b, cookie, open } = await signedInAsA();
    const theirs = await ok(
      h.admin.post(
        '/faults',
        { match: { workspace_id: b.id, path: '/contacts' }, action: { status: 500 }, times: 1 },
        admin,
      ),
      201,
    );
    const page = await open('/inspector/faults');
    expect(page.html).not.toContain(theirs.id);
    expect(page.html).not.toContain('<select name="workspace_id"><option value="">any');
    const post = async (action: string, fields: Record<string, string>) => {
      const from = await open('/inspector/faults');
      return h.request(action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
        body: new URLSearchParams({ ...fields, token: formToken(from.html, action) }).toString(),
      });
    };
    const added = await post('/inspector/faults', { path: '/jobs', status: '500', times: '1' });
    expect(added.status).toBe(303);
    const faults = (await h.admin.get('/faults', admin)).body.data as {
      id: string;
      match: { workspace_id?: string };
    }[];
    const ours = faults.find((f) => f.id !== theirs.id);
    expect(ours?.match.workspace_id).toBe(a.id);
    expect((await b.api.get('/jobs')).status).toBe(200);
    expect((await a.api.get('/jobs')).status).toBe(500);
    expect((await post('/inspector/faults/clear', {})).status).toBe(303);
    const left = (await h.admin.get('/faults', admin)).body.data as { id: string }[];
    expect(left.map((f) => f.id)).toEqual([theirs.id]);
    expect((await open(`/inspector/faults/${theirs.id}/delete`, { method: 'POST' })).status).toBe(
      403,
    );
  });

  test('a wrong control token is refused, and a deleted workspace signs its people out', async () => {
    const { h, a, open } = await signedInAsA();
    const wrong = await signIn(h, 'svc_ctl_not-one-of-ours');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect((await open('/inspector')).status).toBe(200);
    await ok(h.admin.raw('DELETE', `/workspaces/${a.id}`, admin));
    const after = await open('/inspector');
    expect(after.status).toBe(401);
    expect(after.html).toContain('action="/sign-in"');
  });

  test("a forged cookie naming a control token's hash opens nothing", async () => {
    const { h, a } = await signedInAsA();
    const { sha256Hex } = await import('../../src/platform/ids');
    const forged = `svc_admin=${sha256Hex(a.control_token)}.forged`;
    const res = await h.request('/inspector', { headers: { Cookie: forged } });
    expect(res.status).toBe(401);
  });
});
