import { describe, expect, test } from 'vitest';
import { ok } from '../support/expect';
import { harness } from '../support/harness';
import { CALLBACK, clientFields, FORM, postForm, rig } from './setup';

// Issue 38: POST /__admin/oauth/authorize answers, for a test without a browser, the redirect the
// consent page would have made (code and state, or error=access_denied) after the page's own
// checks, each refusal a 400 naming its field. The code it gives trades like the page's.

const authorize = (
  r: Awaited<ReturnType<typeof rig>>,
  body: Record<string, unknown>,
  invalid = false,
) =>
  r.h.admin.post(
    '/oauth/authorize',
    {
      client_id: r.app.client_id,
      redirect_uri: CALLBACK,
      state: 'st-1',
      workspace_id: r.ws.id,
      decision: 'allow',
      ...body,
    },
    { invalid },
  );

/** The code in `location` traded at POST /v1/oauth/token, as the app would. */
const trade = (r: Awaited<ReturnType<typeof rig>>, location: string) =>
  postForm(r.h, '/oauth/token', {
    grant_type: 'authorization_code',
    code: new URL(location).searchParams.get('code') ?? '',
    redirect_uri: CALLBACK,
    ...clientFields(r.app),
  });

/** The body is refused 400, naming `field`. */
async function expectRefused(
  r: Awaited<ReturnType<typeof rig>>,
  body: Record<string, unknown>,
  field: string,
) {
  const res = await authorize(r, body, true);
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(res.body.error.code).toBe('invalid_request');
  expect(res.body.error.field, JSON.stringify(body)).toBe(field);
}

describe('POST /__admin/oauth/authorize', () => {
  test('allow: the location carries a code and the state, and the code trades for a token of the workspace with the scope asked', async () => {
    const r = await rig();
    const { location } = await ok(authorize(r, { scope: 'read', state: 'a b&c' }));
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(CALLBACK);
    expect(url.searchParams.get('state')).toBe('a b&c');
    expect(url.searchParams.get('code') ?? '').not.toBe('');
    const traded = await trade(r, location);
    expect(traded.status).toBe(200);
    expect(traded.body.scope).toBe('read');
    const me = await r.h.as(traded.body.access_token).get('/ping');
    expect(me.body.workspace_id ?? me.body.workspace?.id).toBe(r.ws.id);
  });

  test('without scope the app is allowed to read and write, as on the page', async () => {
    const r = await rig();
    const { location } = await ok(authorize(r, {}));
    const traded = await trade(r, location);
    expect(traded.body.scope).toBe('write');
  });

  test('deny: the location carries error=access_denied and the state, and no code', async () => {
    const r = await rig();
    const { location } = await ok(authorize(r, { decision: 'deny', state: 'xyz' }));
    const url = new URL(location);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('xyz');
    expect(url.searchParams.has('code')).toBe(false);
  });

  test('each check the page makes is a 400 naming its field, and no code is made', async () => {
    const r = await rig();
    const before = [...r.h.rt.store.global.values('oauth_codes')].length;
    for (const [body, field] of [
      [{ client_id: 'nope' }, 'client_id'],
      [{ redirect_uri: 'https://app.example/elsewhere' }, 'redirect_uri'],
      [{ redirect_uri: `${CALLBACK}/` }, 'redirect_uri'],
      [{ state: '' }, 'state'],
      [{ scope: 'admin' }, 'scope'],
      [{ decision: 'maybe' }, 'decision'],
      [{ workspace_id: '00000000-0000-4000-8000-000000000000' }, 'workspace_id'],
      [{ client_id: 42 }, 'client_id'],
      [{ workspace_id: undefined }, 'workspace_id'],
    ] as const) {
      await expectRefused(r, body, field);
    }
    expect([...r.h.rt.store.global.values('oauth_codes')]).toHaveLength(before);
  });

  test("a control token connects its own workspace, and another workspace's is 403", async () => {
    const TOKEN = 'authorize-admin-token';
    const h = harness({ rateLimit: null, adminToken: TOKEN });
    const admin = { headers: { Authorization: `Bearer ${TOKEN}` } };
    const a = await ok(h.admin.post('/workspaces', {}, admin), 201);
    const b = await ok(h.admin.post('/workspaces', {}, admin), 201);
    const app = await ok(
      h.admin.post('/oauth/apps', { name: 'Roof Reports', redirect_uris: [CALLBACK] }, admin),
      201,
    );
    const asA = { headers: { Authorization: `Bearer ${a.control_token}` } };
    const body = (workspace_id: string) => ({
      client_id: app.client_id,
      redirect_uri: CALLBACK,
      state: 's',
      workspace_id,
      decision: 'allow',
    });
    expect((await h.admin.post('/oauth/authorize', body(a.id), asA)).status).toBe(200);
    const other = await h.admin.post('/oauth/authorize', body(b.id), asA);
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('forbidden');
    expect((await h.admin.post('/oauth/authorize', body(a.id))).status).toBe(401);
  });

  test('the consent page is unchanged: its form still needs its anti-forgery token', async () => {
    const r = await rig();
    const res = await r.h.app.request('/oauth/authorize', {
      method: 'POST',
      headers: { 'Content-Type': FORM },
      body: new URLSearchParams({
        client_id: r.app.client_id,
        redirect_uri: CALLBACK,
        state: 's',
        workspace_id: r.ws.id,
        decision: 'allow',
      }).toString(),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
  });
});

describe("POST /__admin/oauth/authorize: the body's shape first, then the page's checks in its order", () => {
  test('a field of the wrong type or value is named first, as on every route', async () => {
    const r = await rig();
    for (const [body, field] of [
      [{ client_id: 'nope', scope: 'x' }, 'scope'],
      [{ client_id: 'nope', decision: 'x' }, 'decision'],
      [{ client_id: 'nope', workspace_id: 5 }, 'workspace_id'],
      [{ state: 7 }, 'state'],
    ] as const) {
      await expectRefused(r, body, field);
    }
  });

  test('then the first check the consent page would fail, in its order', async () => {
    const r = await rig();
    for (const [body, field] of [
      [{ client_id: 'nope', redirect_uri: 'https://x.example/', state: '' }, 'client_id'],
      [{ redirect_uri: 'https://x.example/', state: '' }, 'redirect_uri'],
      [{ state: '', workspace_id: '00000000-0000-4000-8000-000000000000' }, 'state'],
      [{ workspace_id: '00000000-0000-4000-8000-000000000000' }, 'workspace_id'],
    ] as const) {
      await expectRefused(r, body, field);
    }
  });

  test('an empty scope is none, as on the page: read and write', async () => {
    const r = await rig();
    const { location } = await ok(authorize(r, { scope: '' }, true));
    const traded = await trade(r, location);
    expect(traded.body.scope).toBe('write');
  });
});
