import { describe, expect, test } from 'vitest';
import { harness, type Json } from '../support/harness';

// decisions.md, Faults: what a matching /v1 call gets, through the in-process app.

const h = harness({ rateLimit: null });

async function fault(body: Record<string, unknown>): Promise<Json> {
  const res = await h.admin.post('/faults', body);
  expect(res.status).toBe(201);
  return res.body;
}

const jobCount = async (ws: Awaited<ReturnType<typeof h.workspace>>) =>
  (await ws.api.get('/jobs', { query: { limit: 100 } })).body.data.length;

describe('a status fault', () => {
  test('answers the spec envelope instead of the route, changes no data, and counts down', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    const f = await fault({
      match: { method: 'post', path: '/v1/jobs', workspace_id: ws.id },
      action: { status: 500 },
      times: 1,
    });
    const res = await ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' });
    expect(res.status).toBe(500);
    expect(res.body.error).toMatchObject({ code: 'server_error' });
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
    expect(res.body.error.doc_url).toMatch(/\/docs\/errors#server_error$/);
    expect(await jobCount(ws)).toBe(0);
    // spent: the next call runs for real; the fault is kept in the list as spent
    const next = await ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' });
    expect(next.status).toBe(201);
    expect(await jobCount(ws)).toBe(1);
    const stored = (await h.admin.get(`/faults/${f.id}`)).body;
    expect(stored).toMatchObject({ fired: 1, remaining: 0, state: 'spent' });
    await h.admin.delete('/faults');
  });

  test('an idempotent retry after a faulted call runs for real', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    await fault({
      match: { workspace_id: ws.id, method: 'POST' },
      action: { status: 500 },
      times: 1,
    });
    const headers = { 'Idempotency-Key': 'k-1' };
    const body = { name: 'Roof', address: '1 Main St' };
    expect((await ws.api.post('/jobs', body, { headers })).status).toBe(500);
    expect((await ws.api.post('/jobs', body, { headers })).status).toBe(201);
    await h.admin.delete('/faults');
  });

  test('429 carries Retry-After and code rate_limited by default; a code picks the envelope', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    await fault({
      match: { workspace_id: ws.id, path: '/jobs' },
      action: { status: 429 },
      times: 1,
    });
    const res = await ws.api.get('/jobs');
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('rate_limited');
    expect(res.headers.get('retry-after')).toBe('1');

    await fault({
      match: { workspace_id: ws.id },
      action: { status: 503, code: 'server_error' },
      times: 1,
    });
    const raw = await h.app.request('/v1/jobs', {
      headers: { Authorization: `Bearer ${ws.keys.write.key}` },
    });
    expect(raw.status).toBe(503);
    expect(((await raw.json()) as Json).error.code).toBe('server_error');
    expect(raw.headers.get('retry-after')).toBeNull();
    await h.admin.delete('/faults');
  });

  test('a code alone answers its own status', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    await fault({ match: { workspace_id: ws.id }, action: { code: 'rate_limited' }, times: 1 });
    const res = await ws.api.get('/jobs');
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('rate_limited');
    expect(res.headers.get('retry-after')).toBe('1');
    await h.admin.delete('/faults');
  });
});

describe('matching', () => {
  test('path is a prefix with or without /v1; method case-insensitive; key and workspace', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    const other = await h.workspace({ profile: 'empty' });
    await fault({
      match: { path: '/contacts', method: 'Get', workspace_id: ws.id },
      action: { status: 500 },
    });
    await fault({ match: { key_id: ws.keys.read.id }, action: { status: 500 } });
    expect((await ws.api.get('/contacts')).status).toBe(500);
    expect((await ws.api.get('/contacts/search', { query: { q: 'a' } })).status).toBe(500);
    expect((await ws.api.post('/contacts', { first_name: 'A' })).status).not.toBe(500);
    expect((await ws.api.get('/jobs')).status).toBe(200);
    expect((await other.api.get('/contacts')).status).toBe(200);
    expect((await ws.read.get('/jobs')).status).toBe(500);
    expect((await other.read.get('/jobs')).status).toBe(200);
    await h.admin.delete('/faults');
  });

  test('ids match in any case, and a GET fault takes HEAD, which is served as GET', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    await fault({
      match: { method: 'GET', path: '/jobs', workspace_id: ws.id.toUpperCase() },
      action: { status: 500 },
    });
    await fault({ match: { key_id: ws.keys.read.id.toUpperCase() }, action: { status: 429 } });
    expect((await ws.api.get('/jobs')).status).toBe(500);
    // HEAD straight to the app: its empty body is no envelope for the harness's contract check
    const head = await h.app.request('/v1/jobs', {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${ws.keys.write.key}` },
    });
    expect(head.status).toBe(500);
    expect((await ws.read.get('/contacts')).status).toBe(429);
    await h.admin.delete('/faults');
  });

  test('a target fault never touches API calls', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    await fault({ match: { target: 'http://127.0.0.1' }, action: { status: 500 } });
    expect((await ws.api.get('/jobs')).status).toBe(200);
    await h.admin.delete('/faults');
  });

  test('the oldest matching fault fires; a removed fault fires no more', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    const first = await fault({ match: { workspace_id: ws.id }, action: { status: 429 } });
    await fault({ match: { workspace_id: ws.id }, action: { status: 500 } });
    expect((await ws.api.get('/jobs')).status).toBe(429);
    await h.admin.delete(`/faults/${first.id}`);
    expect((await ws.api.get('/jobs')).status).toBe(500);
    await h.admin.delete('/faults');
    expect((await ws.api.get('/jobs')).status).toBe(200);
  });
});

describe('probability', () => {
  async function pattern(seed: number | undefined, n: number): Promise<number[]> {
    const ws = await h.workspace({ profile: 'empty' });
    const f = await fault({
      match: { workspace_id: ws.id },
      action: { status: 500 },
      probability: 0.5,
      ...(seed === undefined ? {} : { seed }),
    });
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      out.push((await ws.api.get('/jobs')).status);
    }
    const stored = (await h.admin.get(`/faults/${f.id}`)).body;
    expect(stored.fired).toBe(out.filter((s) => s === 500).length);
    await h.admin.delete('/faults');
    return out;
  }

  test('the same seed draws the same pattern; about the share asked for', async () => {
    const a = await pattern(7, 40);
    const b = await pattern(7, 40);
    expect(a).toEqual(b);
    const hits = a.filter((s) => s === 500).length;
    expect(hits).toBeGreaterThan(8);
    expect(hits).toBeLessThan(32);
    expect(await pattern(8, 40)).not.toEqual(a);
  });

  test('probability 0 never fires', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    await fault({ match: { workspace_id: ws.id }, action: { status: 500 }, probability: 0 });
    for (let i = 0; i < 5; i++) {
      expect((await ws.api.get('/jobs')).status).toBe(200);
    }
    await h.admin.delete('/faults');
  });
});

describe('delay and drop in-process', () => {
  test('a delay runs the real request after it', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    await fault({ match: { workspace_id: ws.id }, action: { delay_ms: 150 }, times: 1 });
    const started = Date.now();
    const res = await ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(res.status).toBe(201);
    expect(await jobCount(ws)).toBe(1);
    await h.admin.delete('/faults');
  });

  test('a drop without a socket is a network error, and changes nothing', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    await fault({ match: { workspace_id: ws.id }, action: { drop: true }, times: 1 });
    const res = await h.app.request('/v1/jobs', {
      method: 'POST',
      headers: { Authorization: `Bearer ${ws.keys.write.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Roof', address: '1 Main St' }),
    });
    expect(res.type).toBe('error');
    expect(res.status).toBe(0);
    expect(await jobCount(ws)).toBe(0);
    await h.admin.delete('/faults');
  });
});

describe('the request log', () => {
  test('marks a faulted call with the fault id; others carry none', async () => {
    const ws = await h.workspace({ profile: 'empty' });
    const f = await fault({ match: { workspace_id: ws.id }, action: { status: 500 }, times: 1 });
    await ws.api.get('/jobs');
    await ws.api.get('/jobs');
    await new Promise((r) => setTimeout(r, 20));
    const entries = (await h.admin.get('/requests', { query: { workspace_id: ws.id } })).body.data;
    expect(entries.map((e: Json) => [e.status, e.fault])).toEqual([
      [200, undefined],
      [500, f.id],
    ]);
    await h.admin.delete('/faults');
  });
});
