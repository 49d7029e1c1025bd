import { describe, expect, test } from 'vitest';
import type { Json } from '../support/harness';
import {
  advance,
  app,
  BUILD_SECONDS,
  build,
  built,
  expectError,
  fresh,
  ok,
  stormBody,
  UNKNOWN,
} from './setup';

// GET /storm_lists (status filter) and GET /storm_lists/{id}: spec, Storm lists (read only),
// Pagination, Errors (405 for a wrong verb); decisions.md, Lists.

const ids = (body: Json): string[] => body.data.map((l: Json) => l.id);

/** A workspace holding one list of each status, oldest first: ready, partial, failed, building. */
async function everyStatus() {
  const { h, ws } = await fresh();
  const ready = await built(h, ws, await stormBody(h, { dedupe_days: 0 }));
  const partial = await built(h, ws, await stormBody(h, { dedupe_days: 0, property_cap: 3 }));
  const failed = await built(h, ws, await stormBody(h, { min_size_in: 9 }));
  const building = await build(h, ws, await stormBody(h));
  expect([ready.status, partial.status, failed.status, building.status]).toEqual([
    'ready',
    'partial',
    'failed',
    'building',
  ]);
  return { h, ws, ready, partial, failed, building };
}

describe('GET /storm_lists', () => {
  test("lists the workspace's lists newest first, each as GET /storm_lists/{id} shows it", async () => {
    const { ws, ready, partial, failed, building } = await everyStatus();
    const theirs = await fresh();
    await build(theirs.h, theirs.ws, await stormBody(theirs.h));
    const list = await ok(ws.api.get('/storm_lists'));
    expect(list).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(ids(list)).toEqual([building.id, failed.id, partial.id, ready.id]);
    for (const l of list.data) {
      expect(await ok(ws.api.get(`/storm_lists/${l.id}`))).toEqual(l);
    }
  });

  test.each(['ready', 'partial', 'failed', 'building'] as const)(
    'status=%s gives the lists in that status',
    async (status) => {
      const made = await everyStatus();
      const res = await ok(made.ws.api.get('/storm_lists', { query: { status } }));
      expect(ids(res)).toEqual([made[status].id]);
    },
  );

  test('an unknown status is 400 field status', async () => {
    const { ws } = await fresh();
    const res = await ws.api.get('/storm_lists', { query: { status: 'done' }, invalid: true });
    expectError(res, 400, 'invalid_request', 'status');
  });

  test('pages follow next_cursor; a cursor svc did not issue is 400 field cursor', async () => {
    const { ws, ready, partial, failed, building } = await everyStatus();
    const first = await ok(ws.api.get('/storm_lists', { query: { limit: 3 } }));
    expect(first.has_more).toBe(true);
    const second = await ok(
      ws.api.get('/storm_lists', { query: { limit: 3, cursor: first.next_cursor } }),
    );
    expect([...ids(first), ...ids(second)]).toEqual([building.id, failed.id, partial.id, ready.id]);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    const bad = await ws.api.get('/storm_lists', { query: { cursor: 'abc' }, invalid: true });
    expectError(bad, 400, 'invalid_request', 'cursor');
  });

  test('updated_since finds a list that finished building after the time', async () => {
    const { h, ws } = await fresh();
    const old = await built(h, ws, await stormBody(h));
    const list = await build(h, ws, await stormBody(h));
    await advance(h, 5);
    const since = new Date(Date.parse(list.created_at) + 1000).toISOString();
    expect(ids(await ok(ws.api.get('/storm_lists', { query: { updated_since: since } })))).toEqual(
      [],
    );
    await advance(h, BUILD_SECONDS);
    const after = await ok(ws.api.get('/storm_lists', { query: { updated_since: since } }));
    expect(ids(after)).toEqual([list.id]);
    expect(after.data[0].status).not.toBe('building');
    expect(ids(after)).not.toContain(old.id);
  });
});

describe('GET /storm_lists/{id}', () => {
  test("an unknown id, an id of another form, or another workspace's list is 404", async () => {
    const { h, ws } = await fresh();
    const theirs = await fresh();
    const list = await build(theirs.h, theirs.ws, await stormBody(h));
    for (const id of [UNKNOWN, 'not-a-uuid', list.id]) {
      expectError(await ws.api.get(`/storm_lists/${id}`), 404, 'not_found');
    }
  });

  test('an id in upper case names the same list', async () => {
    const { h, ws } = await fresh();
    const list = await build(h, ws, await stormBody(h));
    expect(await ok(ws.api.get(`/storm_lists/${list.id.toUpperCase()}`))).toEqual(list);
  });
});

describe('read only', () => {
  test('a read-only key reads lists, a list and its properties', async () => {
    const { h, ws } = await fresh();
    const list = await built(h, ws, await stormBody(h));
    expect(await ok(ws.read.get('/storm_lists'))).toEqual(await ok(ws.api.get('/storm_lists')));
    expect(await ok(ws.read.get(`/storm_lists/${list.id}`))).toEqual(list);
    const props = await ok(ws.read.get(`/storm_lists/${list.id}/properties`));
    expect(props.data.length).toBeGreaterThan(0);
  });

  test.each([
    ['POST', '/storm_lists'],
    ['PATCH', '/storm_lists/{id}'],
    ['PUT', '/storm_lists/{id}'],
    ['DELETE', '/storm_lists/{id}'],
    ['POST', '/storm_lists/{id}'],
    ['POST', '/storm_lists/{id}/properties'],
    ['DELETE', '/storm_lists/{id}/properties'],
  ])('%s %s is 405 with Allow: GET, HEAD, and changes nothing', async (method, path) => {
    const h = app();
    const { ws } = await fresh(h);
    const list = await built(h, ws, await stormBody(h));
    const url = path.replace('{id}', list.id);
    for (const client of [ws.api, ws.read]) {
      const res = await client.raw(method, url, {
        body: JSON.stringify({ name: 'mine', status: 'ready' }),
        headers: { 'Content-Type': 'application/json' },
      });
      expectError(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    }
    expect(await ok(ws.api.get(`/storm_lists/${list.id}`))).toEqual(list);
    expect((await ok(ws.api.get('/storm_lists'))).data).toHaveLength(1);
  });
});
