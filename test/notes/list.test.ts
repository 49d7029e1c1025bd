import { describe, expect, test } from 'vitest';
import { type Harness, harness, type TestWorkspace } from '../support/harness';
import { idsIn, walkPages } from '../support/pages';

// The empty profile seeds no jobs or notes: /notes holds exactly what the test made.
const setup = async () => {
  const h = harness({ rateLimit: null });
  return { h, ws: await h.workspace() };
};

const DAY = 24 * 60 * 60;
const advance = (h: Harness, seconds = 1) => h.admin.post('/clock', { advance_seconds: seconds });
const now = async (h: Harness): Promise<string> => (await h.admin.get('/clock')).body.now;
const ids = (body: { data: { id: string }[] }) => body.data.map((n) => n.id);

async function job(ws: TestWorkspace): Promise<string> {
  const res = await ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A note on `jobId`, then a second on the clock so the next one is newer. */
async function note(h: Harness, ws: TestWorkspace, jobId: string, content = 'note') {
  const res = await ws.api.post('/notes', { job_id: jobId, content });
  expect(res.status).toBe(201);
  await advance(h);
  return res.body.id as string;
}

const listed = async (ws: TestWorkspace, query: Record<string, string | number> = {}) => {
  const res = await ws.api.get('/notes', { query });
  expect(res.status).toBe(200);
  return ids(res.body);
};

describe('GET /notes', () => {
  test('lists notes newest first in the list envelope', async () => {
    const { h, ws } = await setup();
    const j = await job(ws);
    const made = [await note(h, ws, j, 'a'), await note(h, ws, j, 'b'), await note(h, ws, j, 'c')];
    const res = await ws.api.get('/notes');
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(ids(res.body)).toEqual([...made].reverse());
    expect(res.body.data[0]).toMatchObject({ object: 'note', content: 'c', job_id: j });
  });

  test('job_id keeps the notes of that job only', async () => {
    const { h, ws } = await setup();
    const [j1, j2] = [await job(ws), await job(ws)];
    const a = await note(h, ws, j1);
    await note(h, ws, j2);
    const c = await note(h, ws, j1);
    expect(await listed(ws, { job_id: j1 })).toEqual([c, a]);
    expect(await listed(ws, { job_id: crypto.randomUUID() })).toEqual([]);
  });

  test('job_id that is not a uuid is 400 field job_id', async () => {
    const { ws } = await setup();
    const res = await ws.api.get('/notes', { query: { job_id: 'roof' }, invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'job_id' });
  });

  test('updated_since keeps notes written at or after the instant', async () => {
    const { h, ws } = await setup();
    const j = await job(ws);
    await note(h, ws, j);
    await advance(h, 60);
    const since = await now(h);
    const later = await note(h, ws, j);
    expect(await listed(ws, { updated_since: since })).toEqual([later]);
    const exact = (await ws.api.get(`/notes/${later}`)).body.updated_at;
    expect(await listed(ws, { updated_since: exact })).toEqual([later]);
  });

  test('updated_since that is not a date is 400 field updated_since', async () => {
    const { ws } = await setup();
    const res = await ws.api.get('/notes', { query: { updated_since: 'last week' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'updated_since' });
  });

  test('pages follow next_cursor to the end, each note once, newest first', async () => {
    const { h, ws } = await setup();
    const j = await job(ws);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await note(h, ws, j, `n${i}`));
    }
    const { data, pages } = await walkPages(ws.api, '/notes', { limit: 2 });
    expect(pages).toBe(3);
    expect(idsIn(data)).toEqual([...made].reverse());
  });

  test('job_id and a cursor combine: the pages hold only that job', async () => {
    const { h, ws } = await setup();
    const [j1, j2] = [await job(ws), await job(ws)];
    const mine: string[] = [];
    for (let i = 0; i < 3; i++) {
      mine.push(await note(h, ws, j1));
      await note(h, ws, j2);
    }
    const first = await ws.api.get('/notes', { query: { job_id: j1, limit: 2 } });
    const second = await ws.api.get('/notes', {
      query: { job_id: j1, limit: 2, cursor: first.body.next_cursor },
    });
    expect([...ids(first.body), ...ids(second.body)]).toEqual([...mine].reverse());
    expect(second.body.next_cursor).toBeNull();
  });

  test('a cursor that svc did not issue is 400 field cursor', async () => {
    const { ws } = await setup();
    const res = await ws.api.get('/notes', { query: { cursor: 'garbage' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'cursor' });
  });

  test("another workspace's notes are never listed", async () => {
    const { h, ws } = await setup();
    const other = await h.workspace();
    await note(h, other, await job(other));
    expect(await listed(ws)).toEqual([]);
  });

  test('a read-only key may list notes', async () => {
    const { h, ws } = await setup();
    const n = await note(h, ws, await job(ws));
    const res = await ws.read.get('/notes');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([n]);
  });
});

describe('GET /notes/{id}', () => {
  test('answers 200 with the note', async () => {
    const { h, ws } = await setup();
    const j = await job(ws);
    const n = await note(h, ws, j, 'Check the flashing');
    const res = await ws.api.get(`/notes/${n}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: n,
      object: 'note',
      job_id: j,
      content: 'Check the flashing',
    });
  });

  test('a read-only key may read a note', async () => {
    const { h, ws } = await setup();
    const n = await note(h, ws, await job(ws));
    const res = await ws.read.get(`/notes/${n}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(n);
  });

  test('an unknown note is 404 not_found', async () => {
    const { ws } = await setup();
    const res = await ws.api.get(`/notes/${crypto.randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test("another workspace's note is 404 not_found", async () => {
    const { h, ws } = await setup();
    const other = await h.workspace();
    const theirs = await note(h, other, await job(other));
    const res = await ws.api.get(`/notes/${theirs}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

// decisions.md, Jobs: a deleted job disappears with its notes until restored; purged at 30 days
describe('the notes of a deleted job', () => {
  test('are hidden from /notes and 404 by id while the job is deleted', async () => {
    const { h, ws } = await setup();
    const [gone, kept] = [await job(ws), await job(ws)];
    const n = await note(h, ws, gone);
    const k = await note(h, ws, kept);
    expect((await ws.api.delete(`/jobs/${gone}`)).status).toBe(200);
    expect(await listed(ws)).toEqual([k]);
    expect(await listed(ws, { job_id: gone })).toEqual([]);
    const res = await ws.api.get(`/notes/${n}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('come back, unchanged, when the job is restored', async () => {
    const { h, ws } = await setup();
    const j = await job(ws);
    const n = await note(h, ws, j, 'kept');
    const before = (await ws.api.get(`/notes/${n}`)).body;
    await ws.api.delete(`/jobs/${j}`);
    await advance(h, 29 * DAY);
    expect((await h.admin.post(`/jobs/${j}/restore`)).status).toBe(200);
    expect(await listed(ws)).toEqual([n]);
    expect((await ws.api.get(`/notes/${n}`)).body).toEqual(before);
  });

  test('are purged with the job 30 days after its deletion', async () => {
    const { h, ws } = await setup();
    const j = await job(ws);
    const n = await note(h, ws, j);
    await ws.api.delete(`/jobs/${j}`);
    await advance(h, 30 * DAY + 1);
    expect((await h.admin.post(`/jobs/${j}/restore`)).status).toBe(404);
    expect((await ws.api.get(`/notes/${n}`)).status).toBe(404);
    expect(await listed(ws)).toEqual([]);
    expect(h.rt.store.workspace(ws.id).get('notes', n)).toBeUndefined();
  });

  test('a note of an archived job is still listed and readable', async () => {
    const { h, ws } = await setup();
    const j = await job(ws);
    const n = await note(h, ws, j);
    await ws.api.patch(`/jobs/${j}`, { archived: true });
    expect(await listed(ws)).toEqual([n]);
    expect((await ws.api.get(`/notes/${n}`)).status).toBe(200);
  });
});

describe('a job created with notes', () => {
  test('its notes become its first note, listed by /notes', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/jobs', {
      name: 'Roof',
      address: '1 Main St',
      notes: 'Gate code 1234',
    });
    const notes = await ws.api.get('/notes', { query: { job_id: res.body.id } });
    expect(notes.body.data).toHaveLength(1);
    expect(notes.body.data[0]).toMatchObject({ job_id: res.body.id, content: 'Gate code 1234' });
  });
});
