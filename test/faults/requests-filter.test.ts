import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { type Harness, harness, type Json } from '../support/harness';

// decisions.md, Faults: the request log finds faulted calls: `status=0` the dropped ones,
// `fault=<id>` those one fault hit, `fault=true|false` every faulted call or every other.

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const settle = () => new Promise((r) => setTimeout(r, 20));

/** A workspace whose log holds: a dropped call, a 500 of another fault, then a plain call. */
async function session(h: Harness) {
  const ws = await h.workspace({ profile: 'empty' });
  const drop = (
    await h.admin.post('/faults', {
      match: { workspace_id: ws.id, path: '/users' },
      action: { drop: true },
      times: 1,
    })
  ).body;
  const error = (
    await h.admin.post('/faults', {
      match: { workspace_id: ws.id, path: '/jobs' },
      action: { status: 500 },
      times: 1,
    })
  ).body;
  const dropped = await h.app.request('/v1/users', {
    headers: { Authorization: `Bearer ${ws.keys.write.key}` },
  });
  expect(dropped.type).toBe('error');
  expect((await ws.api.get('/jobs')).status).toBe(500);
  expect((await ws.api.get('/jobs')).status).toBe(200);
  await h.admin.delete('/faults'); // the log outlives the faults
  await settle();
  return { ws, drop: drop.id as string, error: error.id as string };
}

const listed = async (h: Harness, query: Record<string, string>) => {
  const res = await h.admin.get('/requests', { query });
  expect(res.status).toBe(200);
  return res.body.data.map((e: Json) => [e.path, e.status, e.fault]);
};

describe('GET /__admin/requests and faults', () => {
  const h = harness({ rateLimit: null });

  test('a dropped call is logged with status 0, found by status=0', async () => {
    const { ws, drop } = await session(h);
    expect(await listed(h, { workspace_id: ws.id, status: '0' })).toEqual([['/v1/users', 0, drop]]);
  });

  test('fault=<id> finds the calls that fault hit, even once it is deleted', async () => {
    const { ws, error } = await session(h);
    expect(await listed(h, { workspace_id: ws.id, fault: error })).toEqual([
      ['/v1/jobs', 500, error],
    ]);
  });

  test('fault=true finds every faulted call, fault=false every other', async () => {
    const { ws, drop, error } = await session(h);
    expect(await listed(h, { workspace_id: ws.id, fault: 'true' })).toEqual([
      ['/v1/jobs', 500, error],
      ['/v1/users', 0, drop],
    ]);
    expect(await listed(h, { workspace_id: ws.id, fault: 'false' })).toEqual([
      ['/v1/jobs', 200, undefined],
    ]);
  });

  test('the export (format=jsonl) takes the fault filter too', async () => {
    const { ws, drop } = await session(h);
    const res = await h.app.request(
      `/__admin/requests?format=jsonl&workspace_id=${ws.id}&fault=${drop}`,
    );
    const lines = (await res.text()).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).status)).toEqual([0]);
  });

  test.each([
    [{ fault: 'yes' }, 'fault'],
    [{ fault: 'flt_123' }, 'fault'],
    [{ status: '00' }, 'status'],
    [{ status: '0xx' }, 'status'],
  ])('%j is 400 invalid_request, field %s', async (query, field) => {
    const res = await h.admin.get('/requests', { query, invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
  });
});

describe('a request log read back from its file', () => {
  test('still finds faulted calls by fault: the fault is one of the fields a line starts with', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-fault-log-'));
    dirs.push(dir);
    const file = join(dir, 'data.json.requests.jsonl');
    const first = harness({ rateLimit: null }, { requestLogFile: file });
    const { error, drop } = await session(first);
    await first.rt.requestLog.close();

    const again = harness({ rateLimit: null }, { requestLogFile: file });
    expect(await listed(again, { fault: error })).toEqual([['/v1/jobs', 500, error]]);
    expect(await listed(again, { status: '0' })).toEqual([['/v1/users', 0, drop]]);
    expect(await listed(again, { fault: 'false' })).toEqual([['/v1/jobs', 200, undefined]]);
    await again.rt.requestLog.close();
  });
});
