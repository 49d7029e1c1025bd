import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Store } from '../../src/store';
import { gate, widgetRoutes } from '../support/fixture-routes';
import { harness } from '../support/harness';

const setup = async () => {
  const h = harness({ rateLimit: null }, { extend: widgetRoutes });
  return { h, ws: await h.workspace() };
};
const key = (k: string) => ({ headers: { 'Idempotency-Key': k } });

describe('Idempotency-Key', () => {
  test('a replay returns the first status and body with Idempotent-Replayed: true, and writes once', async () => {
    const { ws } = await setup();
    const first = await ws.api.post('/widgets', { name: 'once' }, key('k-1'));
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const again = await ws.api.post('/widgets', { name: 'once' }, key('k-1'));
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await ws.api.get('/widgets')).body.data).toHaveLength(1);
  });

  test('applies to PATCH and DELETE as to POST', async () => {
    const { ws } = await setup();
    const made = await ws.api.post('/widgets', { name: 'a' });
    const patch1 = await ws.api.patch(`/widgets/${made.body.id}`, { count: 1 }, key('p'));
    await ws.api.patch(`/widgets/${made.body.id}`, { count: 2 });
    const patch2 = await ws.api.patch(`/widgets/${made.body.id}`, { count: 1 }, key('p'));
    expect(patch2.headers.get('Idempotent-Replayed')).toBe('true');
    expect(patch2.body).toEqual(patch1.body);
    const del1 = await ws.api.delete(`/widgets/${made.body.id}`, key('d'));
    const del2 = await ws.api.delete(`/widgets/${made.body.id}`, key('d'));
    expect(del1.status).toBe(200);
    expect(del2.status).toBe(200);
    expect(del2.headers.get('Idempotent-Replayed')).toBe('true');
  });

  test('the same key with a different body, path or method is 409 conflict', async () => {
    const { ws } = await setup();
    await ws.api.post('/widgets', { name: 'one' }, key('k'));
    const body = await ws.api.post('/widgets', { name: 'two' }, key('k'));
    expect(body.status).toBe(409);
    expect(body.body.error).toMatchObject({ code: 'conflict', field: 'Idempotency-Key' });
    const other = await ws.api.post('/gate', undefined, key('k'));
    expect(other.status).toBe(409);
    expect((await ws.api.get('/widgets')).body.data).toHaveLength(1);
  });

  test('the same JSON spaced or ordered differently is the same request: replayed, not 409', async () => {
    const { ws } = await setup();
    const json = { 'Content-Type': 'application/json', 'Idempotency-Key': 'spaced' };
    const first = await ws.api.raw('POST', '/widgets', {
      body: '{"name":"same","count":2}',
      headers: json,
    });
    expect(first.status, first.text).toBe(201);
    const again = await ws.api.raw('POST', '/widgets', {
      body: '{ "count": 2,\n  "name": "same" }',
      headers: json,
    });
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await ws.api.get('/widgets')).body.data).toHaveLength(1);
  });

  test('the same key while its first request still runs is 409 conflict', async () => {
    const { ws } = await setup();
    gate.close();
    const first = ws.api.post('/gate', undefined, key('slow'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await ws.api.post('/gate', undefined, key('slow'));
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('conflict');
    gate.open();
    expect((await first).status).toBe(200);
    const third = await ws.api.post('/gate', undefined, key('slow'));
    expect(third.headers.get('Idempotent-Replayed')).toBe('true');
  });

  test('requests with one key arriving at every moment of the first one write once', async () => {
    const { ws } = await setup();
    // One request a turn of the event loop, so some land while the first answer is stored.
    const answers = [];
    for (let i = 0; i < 40; i++) {
      answers.push(ws.api.post('/widgets', { name: 'race' }, key('race')));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const settled = await Promise.all(answers);
    expect(settled.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    const firsts = settled.filter(
      (a) => a.status === 201 && a.headers.get('Idempotent-Replayed') === null,
    );
    expect(firsts).toHaveLength(1);
    expect((await ws.api.get('/widgets')).body.data).toHaveLength(1);
  });

  test('a 4xx answer is remembered and replayed too', async () => {
    const { ws } = await setup();
    const first = await ws.api.post('/widgets', { name: 7 }, { ...key('bad'), invalid: true });
    expect(first.status).toBe(400);
    const again = await ws.api.post('/widgets', { name: 7 }, { ...key('bad'), invalid: true });
    expect(again.status).toBe(400);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });

  test('a 5xx answer is not remembered, so a retry runs again', async () => {
    const { ws } = await setup();
    expect((await ws.api.post('/boom', undefined, key('fault'))).status).toBe(500);
    const retry = await ws.api.post('/boom', undefined, key('fault'));
    expect(retry.status).toBe(500);
    expect(retry.headers.get('Idempotent-Replayed')).toBeNull();
  });

  test('keys are per credential', async () => {
    const { h, ws } = await setup();
    const second = await h.admin.post(`/workspaces/${ws.id}/keys`, { access: 'write' });
    const other = h.as(second.body.key);
    await ws.api.post('/widgets', { name: 'x' }, key('shared'));
    const res = await other.post('/widgets', { name: 'x' }, key('shared'));
    expect(res.headers.get('Idempotent-Replayed')).toBeNull();
    expect((await ws.api.get('/widgets')).body.data).toHaveLength(2);
  });

  test('a key of 255 characters is accepted; 256 is 400 naming Idempotency-Key', async () => {
    const { ws } = await setup();
    expect((await ws.api.post('/widgets', { name: 'x' }, key('a'.repeat(255)))).status).toBe(201);
    const res = await ws.api.post(
      '/widgets',
      { name: 'x' },
      { ...key('a'.repeat(256)), invalid: true },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'Idempotency-Key' });
  });

  test('is forgotten after 24 hours on the clock', async () => {
    const { h, ws } = await setup();
    await ws.api.post('/widgets', { name: 'x' }, key('day'));
    await h.admin.post('/clock', { advance_seconds: 24 * 3600 - 60 });
    expect(
      (await ws.api.post('/widgets', { name: 'x' }, key('day'))).headers.get('Idempotent-Replayed'),
    ).toBe('true');
    await h.admin.post('/clock', { advance_seconds: 120 });
    const late = await ws.api.post('/widgets', { name: 'x' }, key('day'));
    expect(late.headers.get('Idempotent-Replayed')).toBeNull();
    expect((await ws.api.get('/widgets')).body.data).toHaveLength(2);
  });

  test('the purge on the clock removes expired keys from the store', async () => {
    const { h, ws } = await setup();
    await ws.api.post('/widgets', { name: 'x' }, key('purged'));
    expect(h.rt.store.count('g', 'idempotency_keys')).toBe(1);
    await h.admin.post('/clock', { advance_seconds: 25 * 3600 });
    expect(h.rt.store.count('g', 'idempotency_keys')).toBe(0);
  });

  test('is ignored on GET', async () => {
    const { ws } = await setup();
    await ws.api.get('/widgets', key('g'));
    const res = await ws.api.get('/widgets', key('g'));
    expect(res.headers.get('Idempotent-Replayed')).toBeNull();
  });

  test('survives a restart of the store', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-idem-'));
    try {
      const first = await Store.open(join(dir, 'data.json'));
      const h1 = harness({}, { store: first.store, extend: widgetRoutes });
      const ws = await h1.workspace();
      const made = await ws.api.post('/widgets', { name: 'x' }, key('restart'));
      await first.store.close();
      const second = await Store.open(join(dir, 'data.json'));
      const h2 = harness({}, { store: second.store, extend: widgetRoutes });
      const replay = await h2.as(ws.keys.write.key).post('/widgets', { name: 'x' }, key('restart'));
      expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
      expect(replay.body).toEqual(made.body);
      await second.store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('Idempotency-Key replays of errors', () => {
  test('a replayed error carries the request_id of the replay, equal to its X-Request-Id', async () => {
    const h = harness({ rateLimit: null }, { extend: widgetRoutes });
    const ws = await h.workspace();
    const path = '/widgets/7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';
    const first = await ws.api.delete(path, { headers: { 'Idempotency-Key': 'gone' } });
    const again = await ws.api.delete(path, { headers: { 'Idempotency-Key': 'gone' } });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.status).toBe(first.status);
    expect(again.body.error.request_id).toBe(again.headers.get('X-Request-Id'));
    expect(again.body.error.request_id).not.toBe(first.body.error.request_id);
    expect({ ...again.body.error, request_id: null }).toEqual({
      ...first.body.error,
      request_id: null,
    });
  });
});
