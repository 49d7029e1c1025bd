import { describe, expect, test } from 'vitest';
import { widgetRoutes } from '../support/fixture-routes';
import { type Harness, harness, type TestWorkspace } from '../support/harness';

const setup = async () => {
  const h = harness({ rateLimit: null }, { extend: widgetRoutes });
  return { h, ws: await h.workspace() };
};

async function addWidgets(
  h: Harness,
  ws: TestWorkspace,
  n: number,
  stepSeconds = 0,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await ws.api.post('/widgets', { name: `w${i}`, color: i % 2 ? 'red' : 'blue' });
    ids.push(res.body.id);
    if (stepSeconds > 0) {
      await h.admin.post('/clock', { advance_seconds: stepSeconds });
    }
  }
  return ids;
}

/** Ids of every widget, following next_cursor from `cursor` to the end; checks each page's flags. */
async function pageToEnd(
  ws: TestWorkspace,
  limit: number,
  cursor: string | null = null,
): Promise<string[]> {
  const seen: string[] = [];
  do {
    const page = await ws.api.get('/widgets', { query: cursor ? { limit, cursor } : { limit } });
    seen.push(...page.body.data.map((w: { id: string }) => w.id));
    expect(page.body.has_more).toBe(page.body.next_cursor !== null);
    cursor = page.body.next_cursor;
  } while (cursor);
  return seen;
}

describe('limit', () => {
  test.each([
    [undefined, 50],
    [1, 1],
    [200, 200],
    [0, 50],
    [201, 50],
    [-5, 50],
  ])('limit=%s gives pages of %i', async (limit, size) => {
    const { h, ws } = await setup();
    await addWidgets(h, ws, 205);
    const res = await ws.api.get('/widgets', { query: limit === undefined ? {} : { limit } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(size);
    expect(res.body.has_more).toBe(true);
  });

  test('an empty limit= says nothing: the default 50', async () => {
    const { h, ws } = await setup();
    await addWidgets(h, ws, 55);
    const res = await ws.api.get('/widgets', { query: { limit: '' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(50);
  });

  test.each(['abc', '2.5', '1e2', 'ten'])('limit=%j is 400 with field limit', async (limit) => {
    const { ws } = await setup();
    const res = await ws.api.get('/widgets', { query: { limit }, invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'limit' });
  });
});

describe('cursors', () => {
  test('pages run newest first until next_cursor is null, with no record twice or missed', async () => {
    const { h, ws } = await setup();
    const ids = await addWidgets(h, ws, 7, 1);
    expect(await pageToEnd(ws, 3)).toEqual([...ids].reverse());
  });

  test('records added while a client pages are neither skipped nor repeated', async () => {
    const { h, ws } = await setup();
    const before = await addWidgets(h, ws, 10, 1);
    const first = await ws.api.get('/widgets', { query: { limit: 4 } });
    await addWidgets(h, ws, 5, 1); // newer: they belong before the cursor
    const seen = first.body.data.map((w: { id: string }) => w.id);
    seen.push(...(await pageToEnd(ws, 4, first.body.next_cursor)));
    expect(seen).toEqual([...before].reverse());
  });

  test('records created in the same millisecond page without loss: ties break on id', async () => {
    const { h, ws } = await setup();
    const at = h.rt.clock.iso();
    const ids = Array.from({ length: 9 }, () => crypto.randomUUID());
    h.rt.store.transaction((tx) => {
      for (const id of ids) {
        tx.workspace(ws.id).put('widgets', {
          id,
          object: 'widget',
          name: id,
          count: null,
          color: null,
          created_at: at,
          updated_at: at,
        });
      }
    });
    expect(await pageToEnd(ws, 2)).toEqual([...ids].sort().reverse());
  });

  test('an altered cursor is 400 with field cursor', async () => {
    const { h, ws } = await setup();
    await addWidgets(h, ws, 3);
    const { next_cursor } = (await ws.api.get('/widgets', { query: { limit: 1 } })).body;
    const altered = `${next_cursor.slice(0, 5)}${next_cursor[5] === 'A' ? 'B' : 'A'}${next_cursor.slice(6)}`;
    for (const cursor of [
      altered,
      `${next_cursor}x`,
      'eyJhIjoxfQ.abc',
      'garbage',
      next_cursor.split('.')[0],
    ]) {
      const res = await ws.api.get('/widgets', { query: { cursor } });
      expect(res.status, cursor).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'cursor' });
    }
  });

  test('a cursor from another workspace is 400', async () => {
    const { h, ws } = await setup();
    const other = await h.workspace();
    await addWidgets(h, ws, 3);
    const { next_cursor } = (await ws.api.get('/widgets', { query: { limit: 1 } })).body;
    const res = await other.api.get('/widgets', { query: { cursor: next_cursor } });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('cursor');
  });

  test('a cursor from another svc data file is 400', async () => {
    const a = await setup();
    const b = await setup();
    await addWidgets(a.h, a.ws, 3);
    const { next_cursor } = (await a.ws.api.get('/widgets', { query: { limit: 1 } })).body;
    const res = await b.ws.api.get('/widgets', { query: { cursor: next_cursor } });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('cursor');
  });
});

describe('time filters', () => {
  test.each(['updated_since', 'created_after', 'created_before'])(
    '%s with a bad value is 400 naming it',
    async (name) => {
      const { ws } = await setup();
      for (const value of [
        'yesterday',
        '2026-13-01',
        '2026-02-30',
        '2026-01-01T25:00:00Z',
        '1700000000',
      ]) {
        const res = await ws.api.get('/widgets', { query: { [name]: value } });
        expect(res.status, value).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'invalid_request', field: name });
      }
    },
  );

  test('created_after is inclusive, created_before exclusive, dates or date-times', async () => {
    const { h, ws } = await setup();
    const [older] = await addWidgets(h, ws, 1);
    await h.admin.post('/clock', { advance_seconds: 3600 });
    const middle = (await h.admin.get('/clock')).body.now;
    const [newer] = await addWidgets(h, ws, 1);
    const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((w) => w.id);
    expect(ids(await ws.api.get('/widgets', { query: { created_after: middle } }))).toEqual([
      newer,
    ]);
    expect(ids(await ws.api.get('/widgets', { query: { created_before: middle } }))).toEqual([
      older,
    ]);
    const at = (await ws.api.get('/widgets')).body.data[0].created_at; // newest first: newer's
    expect(ids(await ws.api.get('/widgets', { query: { created_after: at } }))).toEqual([newer]);
    expect(ids(await ws.api.get('/widgets', { query: { created_before: at } }))).toEqual([older]);
    const day = middle.slice(0, 10);
    const fromDay = await ws.api.get('/widgets', { query: { created_after: day } });
    expect(ids(fromDay)).toContain(newer);
    const dateOnly = await ws.api.get('/widgets', { query: { created_before: '2000-01-01' } });
    expect(dateOnly.body.data).toEqual([]);
  });

  test('an offset whose + arrived unencoded, as a space, is read as +', async () => {
    const { h, ws } = await setup();
    const [only] = await addWidgets(h, ws, 1);
    const now = Date.parse((await h.admin.get('/clock')).body.now);
    // The same instant written two hours ahead, with the + of +02:00 sent raw in the URL.
    const ahead = new Date(now + 2 * 3600_000 - 60_000).toISOString().slice(0, 19);
    // URLSearchParams writes the space as +, exactly what a raw + becomes on the server.
    const res = await ws.api.get('/widgets', { query: { created_after: `${ahead} 02:00` } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((w: { id: string }) => w.id)).toEqual([only]);
    const later = await ws.api.get('/widgets', { query: { created_before: `${ahead} 02:00` } });
    expect(later.body.data).toEqual([]);
  });

  test('updated_since keeps records changed at or after the instant', async () => {
    const { h, ws } = await setup();
    const [a, b] = await addWidgets(h, ws, 2);
    await h.admin.post('/clock', { advance_seconds: 60 });
    const since = (await h.admin.get('/clock')).body.now;
    await ws.api.patch(`/widgets/${a}`, { count: 3 });
    const res = await ws.api.get('/widgets', { query: { updated_since: since } });
    expect(res.body.data.map((w: { id: string }) => w.id)).toEqual([a]);
    expect(res.body.data.map((w: { id: string }) => w.id)).not.toContain(b);
  });
});
