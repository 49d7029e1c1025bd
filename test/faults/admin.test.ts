import { describe, expect, test } from 'vitest';
import { harness } from '../support/harness';

// DESIGN.md, control API: /__admin/faults; decisions.md, Faults (validation, what is stored).

const h = harness({ rateLimit: null });
const post = (body: unknown) => h.admin.post('/faults', body, { invalid: true });

describe('POST /__admin/faults', () => {
  test('201 with the fault as stored: its id, defaults filled in, a seed from the id', async () => {
    const res = await h.admin.post('/faults', {
      match: { method: 'post', path: '/jobs' },
      action: { status: 503 },
      times: 2,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'fault',
      match: { method: 'post', path: '/jobs' },
      action: { status: 503 },
      times: 2,
      remaining: 2,
      probability: 1,
      fired: 0,
      state: 'active',
    });
    expect(res.body.id).toMatch(/^flt_[0-9a-f]{16}$/);
    expect(Number.isInteger(res.body.seed)).toBe(true);
    const again = await h.admin.get(`/faults/${res.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    await h.admin.delete('/faults');
  });

  test('a seed given is kept', async () => {
    const res = await h.admin.post('/faults', {
      match: {},
      action: { delay_ms: 1 },
      probability: 0.5,
      seed: 42,
    });
    expect(res.body.seed).toBe(42);
    expect(res.body.probability).toBe(0.5);
    await h.admin.delete('/faults');
  });

  test.each([
    [{ match: {}, action: { status: 399 } }, 'action.status'],
    [{ match: {}, action: { status: 600 } }, 'action.status'],
    [{ match: {}, action: { status: 500.5 } }, 'action.status'],
    [{ match: {}, action: { code: 'teapot' } }, 'action.code'],
    [{ match: {}, action: { delay_ms: -1 } }, 'action.delay_ms'],
    [{ match: {}, action: { delay_ms: 60_001 } }, 'action.delay_ms'],
    [{ match: {}, action: { drop: false } }, 'action.drop'],
    [{ match: {}, action: {} }, 'action'],
    [{ match: {}, action: { drop: true, status: 500 } }, 'action.drop'],
    [{ match: {}, action: { drop: true, code: 'server_error' } }, 'action.drop'],
    [{ match: {}, action: { status: 500, extra: 1 } }, 'action'],
    [{ match: { host: 'x' }, action: { status: 500 } }, 'match'],
    [{ match: {}, action: { status: 500 }, colour: 'red' }, undefined],
    [{ match: {}, action: { status: 500 }, probability: 1.5 }, 'probability'],
    [{ match: {}, action: { status: 500 }, probability: -0.1 }, 'probability'],
    [{ match: {}, action: { status: 500 }, times: 0 }, 'times'],
    [{ match: {}, action: { status: 500 }, times: 1.5 }, 'times'],
    [{ match: {}, action: { status: 500 }, seed: -1 }, 'seed'],
    [{ match: { path: 'jobs' }, action: { status: 500 } }, 'match.path'],
    [{ match: { method: 'GE T' }, action: { status: 500 } }, 'match.method'],
    [{ match: { target: 'ftp://x' }, action: { drop: true } }, 'match.target'],
    [{ match: { target: 'http://x', path: '/jobs' }, action: { drop: true } }, 'match.target'],
    [{ action: { status: 500 } }, 'match'],
    [{ match: {} }, 'action'],
    // spec, Errors: a code answers with its own status (server_error with any 5xx)
    [{ match: {}, action: { status: 500, code: 'not_found' } }, 'action.code'],
    [{ match: {}, action: { status: 404, code: 'server_error' } }, 'action.code'],
    [{ match: {}, action: { status: 400, code: 'conflict' } }, 'action.code'],
    [{ match: {}, action: { status: 503, code: 'rate_limited' } }, 'action.code'],
    // the API answers only the 4xx of its error table
    [{ match: {}, action: { status: 418 } }, 'action.status'],
    [{ match: {}, action: { status: 408, code: 'server_error' } }, 'action.status'],
    [{ match: { path: '/jobs' }, action: { status: 410 } }, 'action.status'],
  ])('400 invalid_request for %j, field %s', async (body, field) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.field).toBe(field);
    expect(res.body.error.request_id).toEqual(expect.any(String));
    expect(res.body.error.doc_url).toContain('/docs/errors#invalid_request');
    expect((await h.admin.get('/faults')).body.data).toEqual([]);
  });
});

describe('status and code', () => {
  test.each<[Record<string, unknown>, string]>([
    [{ status: 503, code: 'server_error' }, 'a 5xx with server_error'],
    [{ status: 502 }, 'a 5xx alone'],
    [{ status: 404, code: 'not_found' }, 'a status with its own code'],
    [{ status: 402 }, 'a 4xx of the table alone'],
  ])('%j is taken: %s', async (action) => {
    const res = await h.admin.post('/faults', { match: {}, action });
    expect(res.status).toBe(201);
    expect(res.body.action).toEqual(action);
    await h.admin.delete('/faults');
  });

  test.each([408, 410, 418, 502])(
    'a delivery fault (match.target) takes any 4xx or 5xx a receiver may answer: %i',
    async (status) => {
      const res = await h.admin.post('/faults', {
        match: { target: 'http://127.0.0.1:9/' },
        action: { status },
      });
      expect(res.status).toBe(201);
      await h.admin.delete('/faults');
    },
  );
});

describe('GET and DELETE', () => {
  test('the list, oldest first; one deleted; all cleared; 404 for an unknown id', async () => {
    const a = (await h.admin.post('/faults', { match: {}, action: { status: 500 } })).body;
    const b = (await h.admin.post('/faults', { match: {}, action: { drop: true } })).body;
    const list = await h.admin.get('/faults');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(list.body.data.map((f: { id: string }) => f.id)).toEqual([a.id, b.id]);

    const del = await h.admin.delete(`/faults/${a.id}`);
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(a.id);
    expect((await h.admin.get(`/faults/${a.id}`)).status).toBe(404);
    expect((await h.admin.delete(`/faults/${a.id}`)).body.error.code).toBe('not_found');
    expect((await h.admin.get('/faults')).body.data.map((f: { id: string }) => f.id)).toEqual([
      b.id,
    ]);

    const clear = await h.admin.delete('/faults');
    expect(clear.status).toBe(200);
    expect(clear.body).toEqual({ deleted: 1 });
    expect((await h.admin.get('/faults')).body.data).toEqual([]);
    expect((await h.admin.get('/faults/flt_0000000000000000')).status).toBe(404);
  });

  test('the control API document describes the operations', async () => {
    const doc = (await (await h.app.request('/__admin/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.paths['/faults']?.post?.operationId).toBe('createFault');
    expect(doc.paths['/faults/{id}']?.get?.operationId).toBe('getFault');
  });
});
