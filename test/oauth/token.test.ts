import { describe, expect, test } from 'vitest';
import { ok } from '../support/expect';
import {
  advance,
  basic,
  CALLBACK,
  clientFields,
  code,
  connect,
  expectOAuthError,
  OTHER_CALLBACK,
  postForm,
  refreshWith,
  register,
  rig,
  trade,
} from './setup';

// spec, POST /oauth/token and Authentication 5; Errors rule 2 (the OAuth error body).

describe('POST /oauth/token trades an authorization code', () => {
  test('form-encoded with the client in the body: 200 OAuth token, never cached', async () => {
    const r = await rig();
    const res = await trade(r, await code(r));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^svc_oat_[0-9A-Za-z]{32}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^svc_ort_[0-9A-Za-z]{32}$/),
      scope: 'write',
      workspace_id: r.ws.id,
      workspace: 'Acme Roofing',
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  test('JSON with the client in the body is taken as well', async () => {
    const r = await rig();
    const res = await r.h.anonymous.post('/oauth/token', {
      grant_type: 'authorization_code',
      code: await code(r),
      redirect_uri: CALLBACK,
      ...clientFields(r.app),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.access_token).toMatch(/^svc_oat_/);
  });

  test('the client as HTTP Basic is taken', async () => {
    const r = await rig();
    const res = await postForm(
      r.h,
      '/oauth/token',
      { grant_type: 'authorization_code', code: await code(r), redirect_uri: CALLBACK },
      { Authorization: basic(r.app.client_id, r.app.client_secret) },
    );
    expect(res.status, res.text).toBe(200);
  });

  test('HTTP Basic with client_id repeated in the body is taken', async () => {
    const r = await rig();
    const res = await postForm(
      r.h,
      '/oauth/token',
      {
        grant_type: 'authorization_code',
        code: await code(r),
        redirect_uri: CALLBACK,
        client_id: r.app.client_id,
      },
      { Authorization: basic(r.app.client_id, r.app.client_secret) },
    );
    expect(res.status, res.text).toBe(200);
  });

  test('a read code gives a read token, and the answer says scope=read', async () => {
    const r = await rig();
    expect((await ok(trade(r, await code(r, { scope: 'read' })))).scope).toBe('read');
  });

  test('needs no API key: no credential header is asked for', async () => {
    const r = await rig();
    const res = await trade(r, await code(r));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('www-authenticate')).toBeNull();
  });

  test('a code still works at 9 minutes', async () => {
    const r = await rig();
    const c = await code(r);
    await advance(r.h, 9 * 60);
    expect((await trade(r, c)).status).toBe(200);
  });

  test('a code at 11 minutes has expired: 400 invalid_grant', async () => {
    const r = await rig();
    const c = await code(r);
    await advance(r.h, 11 * 60);
    expectOAuthError(await trade(r, c), 400, 'invalid_grant');
  });

  test('an unknown code: 400 invalid_grant', async () => {
    const r = await rig();
    expectOAuthError(await trade(r, 'svc_oac_nope'), 400, 'invalid_grant');
  });

  test("another app's code is refused (400 invalid_grant) and stays good for its app", async () => {
    const r = await rig();
    const other = await register(r.h, 'Other');
    const theirs = await code(r, { app: other });
    expectOAuthError(await trade(r, theirs), 400, 'invalid_grant');
    expect((await trade({ ...r, app: other }, theirs)).status).toBe(200);
  });

  test('a redirect_uri other than the authorised one: 400 invalid_grant', async () => {
    const r = await rig();
    const c = await code(r);
    expectOAuthError(await trade(r, c, { redirect_uri: OTHER_CALLBACK }), 400, 'invalid_grant');
    expect((await trade(r, c)).status).toBe(200);
  });

  test('a code used twice: 400 invalid_grant, and the connection it made stops', async () => {
    const r = await rig();
    const c = await code(r);
    const first = await ok(trade(r, c));
    expect((await r.h.as(first.access_token).get('/ping')).status).toBe(200);
    expectOAuthError(await trade(r, c), 400, 'invalid_grant');
    expect((await r.h.as(first.access_token).get('/ping')).status).toBe(401);
    expectOAuthError(await refreshWith(r, first.refresh_token), 400, 'invalid_grant');
    const [conn] = (await ok(r.h.admin.get(`/workspaces/${r.ws.id}/connections`))).data;
    expect(conn.disconnected_at).not.toBeNull();
  });

  test('each trade is its own connection', async () => {
    const r = await rig();
    const a = await connect(r);
    const b = await connect(r);
    expect(a.refresh_token).not.toBe(b.refresh_token);
    const list = await ok(r.h.admin.get(`/workspaces/${r.ws.id}/connections`));
    expect(list.data).toHaveLength(2);
  });
});

describe('POST /oauth/token refuses the client', () => {
  test('a wrong secret: 401 invalid_client, with WWW-Authenticate', async () => {
    const r = await rig();
    const res = await trade(r, await code(r), { client_secret: 'svc_ocs_wrong' });
    expectOAuthError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  test('a wrong secret as HTTP Basic: 401 invalid_client', async () => {
    const r = await rig();
    const res = await postForm(
      r.h,
      '/oauth/token',
      { grant_type: 'authorization_code', code: await code(r), redirect_uri: CALLBACK },
      { Authorization: basic(r.app.client_id, 'wrong') },
    );
    expectOAuthError(res, 401, 'invalid_client');
  });

  test('an unknown app: 401 invalid_client', async () => {
    const r = await rig();
    const res = await trade(r, await code(r), {
      client_id: 'f0000000-0000-4000-8000-000000000000',
    });
    expectOAuthError(res, 401, 'invalid_client');
  });

  test('no client credentials at all: 401 invalid_client', async () => {
    const r = await rig();
    const res = await postForm(r.h, '/oauth/token', {
      grant_type: 'authorization_code',
      code: await code(r),
      redirect_uri: CALLBACK,
    });
    expectOAuthError(res, 401, 'invalid_client');
  });

  test('HTTP Basic and a body secret together: 400 invalid_request', async () => {
    const r = await rig();
    const res = await postForm(
      r.h,
      '/oauth/token',
      {
        grant_type: 'authorization_code',
        code: await code(r),
        redirect_uri: CALLBACK,
        client_secret: r.app.client_secret,
      },
      { Authorization: basic(r.app.client_id, r.app.client_secret) },
    );
    expectOAuthError(res, 400, 'invalid_request');
  });

  test('a body client_id other than the HTTP Basic user: 401 invalid_client', async () => {
    const r = await rig();
    const other = await register(r.h, 'Other');
    const res = await postForm(
      r.h,
      '/oauth/token',
      {
        grant_type: 'authorization_code',
        code: await code(r),
        redirect_uri: CALLBACK,
        client_id: other.client_id,
      },
      { Authorization: basic(r.app.client_id, r.app.client_secret) },
    );
    expectOAuthError(res, 401, 'invalid_client');
  });
});

describe('POST /oauth/token refuses malformed requests', () => {
  test('no grant_type: 400 invalid_request', async () => {
    const r = await rig();
    const res = await postForm(r.h, '/oauth/token', {
      code: await code(r),
      ...clientFields(r.app),
    });
    expectOAuthError(res, 400, 'invalid_request');
  });

  test('another grant_type: 400 unsupported_grant_type', async () => {
    const r = await rig();
    const res = await postForm(r.h, '/oauth/token', {
      grant_type: 'client_credentials',
      ...clientFields(r.app),
    });
    expectOAuthError(res, 400, 'unsupported_grant_type');
  });

  test.each(['code', 'redirect_uri'])(
    'authorization_code without %s: 400 invalid_request',
    async (missing) => {
      const r = await rig();
      const fields: Record<string, string> = {
        grant_type: 'authorization_code',
        code: await code(r),
        redirect_uri: CALLBACK,
        ...clientFields(r.app),
      };
      delete fields[missing];
      expectOAuthError(await postForm(r.h, '/oauth/token', fields), 400, 'invalid_request');
    },
  );

  test('refresh_token without refresh_token: 400 invalid_request', async () => {
    const r = await rig();
    const res = await postForm(r.h, '/oauth/token', {
      grant_type: 'refresh_token',
      ...clientFields(r.app),
    });
    expectOAuthError(res, 400, 'invalid_request');
  });

  test('a parameter sent twice: 400 invalid_request', async () => {
    const r = await rig();
    const body = `${new URLSearchParams({
      grant_type: 'authorization_code',
      code: await code(r),
      redirect_uri: CALLBACK,
      ...clientFields(r.app),
    })}&code=again`;
    const res = await r.h.anonymous.raw('POST', '/oauth/token', {
      body,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expectOAuthError(res, 400, 'invalid_request');
  });

  test('GET: 405 with Allow: POST, not a request for an API key', async () => {
    const r = await rig();
    const res = await r.h.anonymous.raw('GET', '/oauth/token');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  test('malformed JSON: 400 invalid_request in the OAuth body', async () => {
    const r = await rig();
    const res = await r.h.anonymous.raw('POST', '/oauth/token', {
      body: '{"grant_type":',
      headers: { 'Content-Type': 'application/json' },
    });
    expectOAuthError(res, 400, 'invalid_request');
  });

  test('a JSON field that is no string: 400 invalid_request', async () => {
    const r = await rig();
    const res = await r.h.anonymous.post(
      '/oauth/token',
      { grant_type: 'authorization_code', code: 12, ...clientFields(r.app) },
      { invalid: true },
    );
    expectOAuthError(res, 400, 'invalid_request');
  });

  test('a JSON field as null: 400 invalid_request', async () => {
    const r = await rig();
    const res = await r.h.anonymous.post(
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: null, ...clientFields(r.app) },
      { invalid: true },
    );
    expectOAuthError(res, 400, 'invalid_request');
  });

  test('a malformed request is 400 before the client is checked', async () => {
    const r = await rig();
    const res = await postForm(r.h, '/oauth/token', { grant_type: 'password' });
    expectOAuthError(res, 400, 'unsupported_grant_type');
  });

  test('a body neither form nor JSON: 400 invalid_request', async () => {
    const r = await rig();
    const res = await r.h.anonymous.raw('POST', '/oauth/token', {
      body: 'grant_type=authorization_code',
      headers: { 'Content-Type': 'text/plain' },
    });
    expectOAuthError(res, 400, 'invalid_request');
  });
});

describe('POST /oauth/token with grant_type=refresh_token', () => {
  test('a new access token, and the same refresh token', async () => {
    const r = await rig();
    const first = await connect(r);
    const res = await refreshWith(r, first.refresh_token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.access_token).toMatch(/^svc_oat_/);
    expect(res.body.access_token).not.toBe(first.access_token);
    expect(res.body.refresh_token).toBe(first.refresh_token);
    expect(res.body.scope).toBe('write');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await r.h.as(res.body.access_token).get('/ping')).status).toBe(200);
  });

  test('as JSON with HTTP Basic', async () => {
    const r = await rig();
    const first = await connect(r, 'read');
    const res = await r.h.anonymous.post(
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      { headers: { Authorization: basic(r.app.client_id, r.app.client_secret) } },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.scope).toBe('read');
  });

  test("another app's refresh token: 400 invalid_grant", async () => {
    const r = await rig();
    const first = await connect(r);
    const other = await register(r.h, 'Other');
    expectOAuthError(await refreshWith(r, first.refresh_token, other), 400, 'invalid_grant');
  });

  test('an unknown refresh token, or an access token: 400 invalid_grant', async () => {
    const r = await rig();
    const first = await connect(r);
    expectOAuthError(await refreshWith(r, 'svc_ort_nope'), 400, 'invalid_grant');
    expectOAuthError(await refreshWith(r, first.access_token), 400, 'invalid_grant');
  });

  test('works after the access token has expired', async () => {
    const r = await rig();
    const first = await connect(r);
    await advance(r.h, 2 * 3600);
    expect((await r.h.as(first.access_token).get('/ping')).status).toBe(401);
    const next = await ok(refreshWith(r, first.refresh_token));
    expect((await r.h.as(next.access_token).get('/ping')).status).toBe(200);
  });
});
