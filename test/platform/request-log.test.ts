import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { widgetRoutes } from '../support/fixture-routes';
import { harness } from '../support/harness';

const setup = async () => {
  const h = harness({ rateLimit: null }, { extend: widgetRoutes });
  return { h, ws: await h.workspace() };
};

describe('the request log', () => {
  test('records each call made with a credential: method, path, query, status, timing, caller, bodies', async () => {
    const { h, ws } = await setup();
    const made = await ws.api.post(
      '/widgets',
      { name: 'logged' },
      { headers: { 'Idempotency-Key': 'log-1' } },
    );
    const res = await h.admin.get('/requests', { query: { workspace_id: ws.id } });
    expect(res.status).toBe(200);
    const [entry] = res.body.data;
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/v1/widgets',
      status: 201,
      key_id: ws.keys.write.id,
      credential_kind: 'api_key',
      workspace_id: ws.id,
      request_id: made.headers.get('X-Request-Id'),
      request_headers: { 'content-type': 'application/json', 'idempotency-key': 'log-1' },
      request_body: JSON.stringify({ name: 'logged' }),
      request_body_truncated: false,
    });
    expect(JSON.parse(entry.response_body)).toEqual(made.body);
    expect(entry.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Math.abs(Date.parse(entry.at) - Date.now())).toBeLessThan(5000);
  });

  test('keeps the query, and errors such as 404 and 402', async () => {
    const { h, ws } = await setup();
    await ws.api.get('/widgets', { query: { limit: 3, color: 'red' } });
    await ws.api.get('/nope');
    await h.admin.patch(`/workspaces/${ws.id}`, { subscription_active: false });
    await ws.api.get('/ping');
    const data = (await h.admin.get('/requests', { query: { workspace_id: ws.id } })).body.data;
    expect(data.map((e: { status: number }) => e.status)).toEqual([402, 404, 200]);
    expect(data[2].query).toEqual({ limit: '3', color: 'red' });
  });

  test('does not log calls made without a valid credential', async () => {
    const { h } = await setup();
    await h.anonymous.get('/ping', { invalid: true });
    await h.as('svc_live_wrong').get('/ping', { invalid: true });
    expect((await h.admin.get('/requests')).body.data).toEqual([]);
  });

  test('logs the calls of a revoked key, refused 401, under that key', async () => {
    const { h, ws } = await setup();
    await ws.read.get('/ping');
    expect((await h.admin.delete(`/keys/${ws.keys.read.id}`)).status).toBe(200);
    expect((await ws.read.get('/ping', { invalid: true })).status).toBe(401);
    const data = (await h.admin.get('/requests', { query: { key_id: ws.keys.read.id } })).body.data;
    expect(data.map((e: { status: number }) => e.status)).toEqual([401, 200]);
    expect(data[0].workspace_id).toBe(ws.id);
  });

  test('a path filter may also be relative to the base URL (/widgets for /v1/widgets)', async () => {
    const { h, ws } = await setup();
    await ws.api.get('/ping');
    await ws.api.get('/widgets');
    const data = (await h.admin.get('/requests', { query: { path: '/widgets' } })).body.data;
    expect(data.map((e: { path: string }) => e.path)).toEqual(['/v1/widgets']);
  });

  test('filters by workspace, key, method, path prefix and status or status class, newest first', async () => {
    const { h, ws } = await setup();
    const other = await h.workspace();
    await ws.api.get('/ping');
    await ws.read.get('/widgets');
    await ws.api.post('/widgets', { name: 1 }, { invalid: true });
    await other.api.get('/ping');
    const q = async (query: Record<string, string>) =>
      (await h.admin.get('/requests', { query })).body.data.map(
        (e: { method: string; path: string; status: number }) =>
          `${e.method} ${e.path} ${e.status}`,
      );
    expect(await q({ workspace_id: ws.id })).toEqual([
      'POST /v1/widgets 400',
      'GET /v1/widgets 200',
      'GET /v1/ping 200',
    ]);
    expect(await q({ key_id: ws.keys.read.id })).toEqual(['GET /v1/widgets 200']);
    expect(await q({ workspace_id: ws.id, path: '/v1/widgets' })).toEqual([
      'POST /v1/widgets 400',
      'GET /v1/widgets 200',
    ]);
    expect(await q({ workspace_id: ws.id, status: '4xx' })).toEqual(['POST /v1/widgets 400']);
    expect(await q({ status: '200', workspace_id: other.id })).toEqual(['GET /v1/ping 200']);
    expect(await q({ method: 'post' })).toEqual(['POST /v1/widgets 400']);
  });

  test('a bad status filter is 400 naming it', async () => {
    const { h } = await setup();
    const res = await h.admin.get('/requests', { query: { status: 'teapot' }, invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('status');
  });

  test('pages newest first with next_cursor', async () => {
    const { h, ws } = await setup();
    for (let i = 0; i < 5; i++) {
      await ws.api.get('/ping', { query: {} });
    }
    const first = await h.admin.get('/requests', { query: { limit: 2 } });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.has_more).toBe(true);
    const rest = await h.admin.get('/requests', {
      query: { limit: 10, cursor: first.body.next_cursor },
    });
    expect(rest.body.data).toHaveLength(3);
    expect(rest.body.next_cursor).toBeNull();
    const ids = [...first.body.data, ...rest.body.data].map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(5);
  });

  test('a HEAD is logged with the status it got and no body, as it was answered', async () => {
    const { h, ws } = await setup();
    // Straight to the app: an empty body is no envelope for the harness's contract check.
    const head = await h.app.request('/v1/ping', {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${ws.keys.write.key}` },
    });
    expect([head.status, await head.text()]).toEqual([200, '']);
    const [entry] = (await h.admin.get('/requests')).body.data;
    expect(entry).toMatchObject({
      method: 'HEAD',
      path: '/v1/ping',
      status: 200,
      response_body: null,
      response_body_truncated: false,
    });
  });

  test('caps logged bodies at 16 KB and says so', async () => {
    const { h, ws } = await setup();
    await ws.api.post('/widgets', { name: 'x', padding: 'p'.repeat(40_000) });
    const [entry] = (await h.admin.get('/requests')).body.data;
    expect(entry.request_body).toHaveLength(16 * 1024);
    expect(entry.request_body_truncated).toBe(true);
    expect(entry.response_body_truncated).toBe(false);
  });

  test('keeps calls 14 days on the clock, and not a second longer', async () => {
    const { h, ws } = await setup();
    await ws.api.get('/ping');
    const [ping] = (await h.admin.get('/requests')).body.data as { at: string }[];
    // The clock runs on in real time between calls: each move is set from the call's own time.
    const fourteenDays = Date.parse(ping?.at ?? '') + 14 * 86_400_000;
    await h.admin.post('/clock', { advance_seconds: 13 * 86_400 });
    await ws.api.get('/users');
    await h.admin.post('/clock', { set: new Date(fourteenDays - 1000).toISOString() });
    expect((await h.admin.get('/requests')).body.data).toHaveLength(2);
    await h.admin.post('/clock', { set: new Date(fourteenDays + 1000).toISOString() });
    const left = (await h.admin.get('/requests')).body.data;
    expect(left.map((e: { path: string }) => e.path)).toEqual(['/v1/users']);
  });

  test('is kept in a file beside the data and read back after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-log-'));
    const file = join(dir, 'data.json.requests.jsonl');
    try {
      const first = harness({ rateLimit: null }, { requestLogFile: file });
      const ws = await first.workspace({ profile: 'small' });
      await ws.api.get('/ping');
      await ws.api.get('/users');
      await ws.api.get('/jobs', { query: { limit: 200 } }); // a body cut at 16 KB
      await ws.api.get('/nowhere');
      const before = (await first.admin.get('/requests')).body.data;
      await first.rt.requestLog.close();
      const second = harness({}, { requestLogFile: file });
      const after = (await second.admin.get('/requests')).body.data;
      expect(after.map((e: { path: string }) => e.path)).toEqual([
        '/v1/nowhere',
        '/v1/jobs',
        '/v1/users',
        '/v1/ping',
      ]);
      // every body comes back as it was logged, whole JSON and truncated text alike
      expect(after.map((e: { response_body: string }) => e.response_body)).toEqual(
        before.map((e: { response_body: string }) => e.response_body),
      );
      expect(after[1].response_body_truncated).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the request log cursor', () => {
  test('a cursor the log did not issue is 400 naming cursor', async () => {
    const h = harness();
    const res = await h.admin.get('/requests', { query: { cursor: 'abc' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'cursor' });
  });
});
