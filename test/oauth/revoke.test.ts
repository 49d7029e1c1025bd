import { describe, expect, test } from 'vitest';
import { ok } from '../support/expect';
import {
  basic,
  clientFields,
  connect,
  expectOAuthError,
  postForm,
  refreshWith,
  register,
  revoke,
  rig,
} from './setup';

// spec, POST /oauth/revoke (RFC 7009).

const HOOK = 'http://127.0.0.1:9/hook';

describe('POST /oauth/revoke', () => {
  test('an access token retires only itself: 200, the connection keeps going', async () => {
    const r = await rig();
    const t = await connect(r);
    const next = await ok(refreshWith(r, t.refresh_token));
    const res = await revoke(r, t.access_token);
    expect(res.status, res.text).toBe(200);
    expect((await r.h.as(t.access_token).get('/ping')).status).toBe(401);
    expect((await r.h.as(next.access_token).get('/ping')).status).toBe(200);
    await ok(refreshWith(r, t.refresh_token));
  });

  test('a refresh token disconnects the connection: its tokens stop, its webhooks are off', async () => {
    const r = await rig();
    const t = await connect(r);
    const next = await ok(refreshWith(r, t.refresh_token));
    const hook = await ok(
      r.h.as(t.access_token).post('/webhooks', { event: 'contact.created', target_url: HOOK }),
      201,
    );
    const ours = await ok(
      r.ws.api.post('/webhooks', { event: 'contact.created', target_url: HOOK }),
      201,
    );
    expect((await revoke(r, t.refresh_token)).status).toBe(200);
    expect((await r.h.as(t.access_token).get('/ping')).status).toBe(401);
    expect((await r.h.as(next.access_token).get('/ping')).status).toBe(401);
    expectOAuthError(await refreshWith(r, t.refresh_token), 400, 'invalid_grant');
    const hooks = (await ok(r.h.admin.get('/webhooks', { query: { workspace_id: r.ws.id } }))).data;
    const disabledAt = (id: string) => hooks.find((w: { id: string }) => w.id === id)?.disabled_at;
    expect(disabledAt(hook.id)).toEqual(expect.any(String));
    expect(disabledAt(ours.id)).toBeNull();
    const [conn] = (await ok(r.h.admin.get(`/workspaces/${r.ws.id}/connections`))).data;
    expect(conn.disconnected_at).not.toBeNull();
  });

  test('an unknown token, and a token revoked twice: 200', async () => {
    const r = await rig();
    const t = await connect(r);
    expect((await revoke(r, 'svc_oat_unknown')).status).toBe(200);
    expect((await revoke(r, t.refresh_token)).status).toBe(200);
    expect((await revoke(r, t.refresh_token)).status).toBe(200);
  });

  test("another app's token: 200, and it keeps working", async () => {
    const r = await rig();
    const t = await connect(r);
    const other = await register(r.h, 'Other');
    expect((await revoke(r, t.refresh_token, other)).status).toBe(200);
    expect((await r.h.as(t.access_token).get('/ping')).status).toBe(200);
  });

  test('client credentials as HTTP Basic are taken', async () => {
    const r = await rig();
    const t = await connect(r);
    const res = await postForm(
      r.h,
      '/oauth/revoke',
      { token: t.access_token },
      { Authorization: basic(r.app.client_id, r.app.client_secret) },
    );
    expect(res.status, res.text).toBe(200);
    expect((await r.h.as(t.access_token).get('/ping')).status).toBe(401);
  });

  test('JSON is taken as well', async () => {
    const r = await rig();
    const t = await connect(r);
    const res = await r.h.anonymous.post('/oauth/revoke', {
      token: t.access_token,
      client_id: r.app.client_id,
      client_secret: r.app.client_secret,
    });
    expect(res.status, res.text).toBe(200);
    expect((await r.h.as(t.access_token).get('/ping')).status).toBe(401);
  });

  test('an unknown app: 401 invalid_client, nothing revoked', async () => {
    const r = await rig();
    const t = await connect(r);
    const res = await postForm(r.h, '/oauth/revoke', {
      token: t.refresh_token,
      client_id: 'f0000000-0000-4000-8000-000000000000',
      client_secret: r.app.client_secret,
    });
    expectOAuthError(res, 401, 'invalid_client');
    expect((await r.h.as(t.access_token).get('/ping')).status).toBe(200);
  });

  test('a wrong secret: 401 invalid_client, nothing revoked', async () => {
    const r = await rig();
    const t = await connect(r);
    const res = await postForm(r.h, '/oauth/revoke', {
      token: t.refresh_token,
      client_id: r.app.client_id,
      client_secret: 'wrong',
    });
    expectOAuthError(res, 401, 'invalid_client');
    expect((await r.h.as(t.access_token).get('/ping')).status).toBe(200);
  });

  // RFC 7009 §2.1: "An invalid token type hint value is ignored by the authorization server and
  // does not influence the revocation response."
  test('an unknown token_type_hint is ignored: 200, and the token is revoked', async () => {
    const r = await rig();
    const t = await connect(r);
    const res = await postForm(r.h, '/oauth/revoke', {
      token: t.access_token,
      token_type_hint: 'id_token',
      ...clientFields(r.app),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({});
    expect((await r.h.as(t.access_token).get('/ping')).status).toBe(401);
  });

  test('a hint that is wrong for the token still finds it (RFC 7009 §2.1)', async () => {
    const r = await rig();
    const t = await connect(r);
    const res = await postForm(r.h, '/oauth/revoke', {
      token: t.access_token,
      token_type_hint: 'refresh_token',
      ...clientFields(r.app),
    });
    expect(res.status).toBe(200);
    expect((await r.h.as(t.access_token).get('/ping')).status).toBe(401);
    await ok(refreshWith(r, t.refresh_token));
  });

  // RFC 7009 §2.2 lets the client ignore the body, not fail to read it: clients that read every
  // answer as JSON (simple-oauth2) threw on an empty one, and stopped before revoking the rest.
  test('200 is a JSON body, {} with Content-Type application/json, for a known and an unknown token', async () => {
    const r = await rig();
    const t = await connect(r);
    for (const token of [t.access_token, 'svc_oat_unknown']) {
      const res = await revoke(r, token);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.text).toBe('{}');
    }
  });

  // spec, OAuth: revoke is "Always 200 for a known app; 401 for unknown app or wrong secret".
  test('no token, or an empty one, from a known app: 200 {}, and nothing is revoked', async () => {
    const r = await rig();
    const t = await connect(r);
    for (const fields of [{}, { token: '' }] as Record<string, string>[]) {
      const res = await postForm(r.h, '/oauth/revoke', { ...fields, ...clientFields(r.app) });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({});
    }
    expect((await r.h.as(t.access_token).get('/ping')).status).toBe(200);
  });

  test('no token from an unknown app: 401 invalid_client', async () => {
    const r = await rig();
    const res = await postForm(r.h, '/oauth/revoke', {
      client_id: r.app.client_id,
      client_secret: 'svc_ocs_wrong',
    });
    expectOAuthError(res, 401, 'invalid_client');
  });
});
