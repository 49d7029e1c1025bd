import { describe, expect, test } from 'vitest';
import { widgetRoutes } from '../support/fixture-routes';
import { harness } from '../support/harness';

const setup = async () => {
  const h = harness({}, { extend: widgetRoutes });
  return { h, ws: await h.workspace() };
};

describe('credentials', () => {
  test('a key works as Authorization: Bearer and as X-API-Key', async () => {
    const { h, ws } = await setup();
    expect((await h.as(ws.keys.write.key, 'bearer').get('/ping')).status).toBe(200);
    expect((await h.as(ws.keys.write.key, 'x-api-key').get('/ping')).status).toBe(200);
  });

  test('keys begin with svc_live_ and are stored only as a hash', async () => {
    const { h, ws } = await setup();
    expect(ws.keys.write.key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    const dump = JSON.stringify([
      ...h.rt.store.global.values('api_keys'),
      ...h.rt.store.global.values('key_hashes'),
    ]);
    expect(dump).not.toContain(ws.keys.write.key);
    expect(dump).not.toContain(ws.keys.read.key);
  });

  test.each([
    ['no credential', {}],
    ['a wrong key', { Authorization: 'Bearer svc_live_00000000000000000000000000000000' }],
    ['a wrong X-API-Key', { 'X-API-Key': 'svc_live_nope' }],
    ['another scheme', { Authorization: 'Basic c3ZjOnN2Yw==' }],
    ['an empty bearer', { Authorization: 'Bearer ' }],
    ['a token of no known kind', { Authorization: 'Bearer sk_test_123' }],
  ])('%s is 401 unauthorized', async (_, headers) => {
    const { h } = await setup();
    const res = await h.anonymous.get('/ping', { headers, invalid: true });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  // spec, Authentication 2: "Send it as Authorization: Bearer <API_KEY> or as X-API-Key:
  // <API_KEY>; both work on every endpoint". An Authorization of another scheme is not one.
  test("X-API-Key works beside an Authorization header of another scheme (a proxy's Basic)", async () => {
    const { h, ws } = await setup();
    const res = await h.anonymous.get('/ping', {
      headers: { Authorization: 'Basic c3ZjOnN2Yw==', 'X-API-Key': ws.keys.write.key },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.workspace_id).toBe(ws.id);
  });

  test('a Bearer header is the credential: a wrong one beside a good X-API-Key is 401', async () => {
    const { h, ws } = await setup();
    for (const authorization of ['Bearer svc_live_wrong', 'Bearer']) {
      const res = await h.anonymous.get('/ping', {
        headers: { Authorization: authorization, 'X-API-Key': ws.keys.write.key },
        invalid: true,
      });
      expect(res.status, authorization).toBe(401);
    }
  });

  test('a revoked key is 401 at once', async () => {
    const { h, ws } = await setup();
    expect((await ws.api.get('/ping')).status).toBe(200);
    const revoked = await h.admin.delete(`/keys/${ws.keys.write.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    const res = await ws.api.get('/ping');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
    expect((await ws.read.get('/ping')).status).toBe(200);
  });

  test('a credential sees only its own workspace', async () => {
    const { h, ws } = await setup();
    const other = await h.workspace();
    const mine = await ws.api.post('/widgets', { name: 'mine' });
    expect((await other.api.patch(`/widgets/${mine.body.id}`, { name: 'theirs' })).status).toBe(
      404,
    );
    expect((await other.api.get('/widgets')).body.data).toEqual([]);
  });
});

describe('plan', () => {
  test('a workspace without an active subscription gets 402 plan_required, and back on, 200', async () => {
    const { h, ws } = await setup();
    await h.admin.patch(`/workspaces/${ws.id}`, { subscription_active: false });
    const res = await ws.api.get('/ping');
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('plan_required');
    expect((await ws.read.get('/users')).status).toBe(402);
    await h.admin.patch(`/workspaces/${ws.id}`, { subscription_active: true });
    expect((await ws.api.get('/ping')).status).toBe(200);
  });

  test('a workspace created without a subscription answers 402 from the start', async () => {
    const { h } = await setup();
    const off = await h.workspace({ subscription_active: false });
    expect((await off.api.get('/ping')).status).toBe(402);
  });
});

describe('read-only credentials', () => {
  test('may read', async () => {
    const { ws } = await setup();
    expect((await ws.read.get('/widgets')).status).toBe(200);
    expect((await ws.read.get('/users')).status).toBe(200);
  });

  test.each(['POST', 'PATCH', 'DELETE'])(
    'a %s is 403 forbidden and writes nothing',
    async (method) => {
      const { ws } = await setup();
      const made = await ws.api.post('/widgets', { name: 'before' });
      const path = method === 'POST' ? '/widgets' : `/widgets/${made.body.id}`;
      const res = await ws.read.raw(method, path, {
        body: JSON.stringify({ name: 'after' }),
        headers: { 'Content-Type': 'application/json' },
        invalid: false,
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
      const list = await ws.api.get('/widgets');
      expect(list.body.data.map((w: { name: string }) => w.name)).toEqual(['before']);
    },
  );

  test('is refused before the body is validated', async () => {
    const { ws } = await setup();
    const res = await ws.read.post('/widgets', { name: 42 }, { invalid: true });
    expect(res.status).toBe(403);
  });
});
