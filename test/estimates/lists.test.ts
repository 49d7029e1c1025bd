// GET /estimates, GET /estimates/{id} and GET /jobs/{id}/estimates: spec, Estimates (filters
// status, job_id, estimate_number; limit, cursor, time filters), Pagination, Errors; decisions.md,
// Lists (newest first, keyset cursors bound to the list) and Jobs (a deleted job's estimates are
// gone with it until it is restored).
import { describe, expect, test } from 'vitest';
import type { Harness, TestWorkspace } from '../support/harness';
import { idsIn, walkPages } from '../support/pages';
import {
  acted,
  advance,
  expect400,
  getEstimate,
  idsOf,
  newEstimate,
  newJob,
  ok,
  pricedEstimate,
  setup,
  UNKNOWN,
} from './setup';

/** `n` estimates on a job, a second apart, oldest first. */
async function several(h: Harness, ws: TestWorkspace, jobId: string, n: number) {
  const made = [];
  for (let i = 0; i < n; i++) {
    made.push(await newEstimate(ws, jobId, { title: `Option ${i + 1}` }));
    await advance(h, 1);
  }
  return made;
}

const list = (ws: TestWorkspace, query: Record<string, string | number> = {}) =>
  ok(ws.api.get('/estimates', { query }));

describe('GET /estimates', () => {
  test('lists the estimates of the workspace newest first, each as GET /estimates/{id} shows it', async () => {
    const { h, ws, jobId } = await setup();
    const made = await several(h, ws, jobId, 3);
    const page = await list(ws);
    expect(page).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(page.data.map((e: { id: string }) => e.id)).toEqual(made.map((e) => e.id).reverse());
    for (const e of page.data) {
      expect(e).toEqual(await getEstimate(ws, e.id));
    }
  });

  test('an empty workspace lists none', async () => {
    const { ws } = await setup();
    expect(await list(ws)).toEqual({
      object: 'list',
      data: [],
      has_more: false,
      next_cursor: null,
    });
  });

  test("another workspace's estimates are not listed, and GET of one is 404", async () => {
    const s = await setup();
    const other = await setup(s.h);
    const theirs = await newEstimate(other.ws, other.jobId);
    expect((await list(s.ws)).data).toEqual([]);
    const res = await s.ws.api.get(`/estimates/${theirs.id}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('a read-only key lists and reads them', async () => {
    const { ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId);
    expect(idsOf(await ws.read.get('/estimates'))).toEqual([made.id]);
    expect((await ok(ws.read.get(`/estimates/${made.id}`))).id).toBe(made.id);
  });

  test('GET /estimates/{id} of an unknown id, or one of any other form, is 404', async () => {
    const { ws } = await setup();
    for (const id of [UNKNOWN, 'E-1001', 'not-a-uuid']) {
      const res = await ws.api.get(`/estimates/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});

describe('GET /estimates: filters', () => {
  test('status filters by status', async () => {
    const { h, ws, jobId } = await setup();
    const draft = await pricedEstimate(ws, jobId);
    const sent = await pricedEstimate(ws, jobId);
    const signed = await pricedEstimate(ws, jobId);
    await acted(h, sent.id, 'send');
    await acted(h, signed.id, 'send');
    await acted(h, signed.id, 'sign', { signer_name: 'Dana' });
    expect(idsOf(await ws.api.get('/estimates', { query: { status: 'draft' } }))).toEqual([
      draft.id,
    ]);
    expect(idsOf(await ws.api.get('/estimates', { query: { status: 'sent' } }))).toEqual([sent.id]);
    expect(idsOf(await ws.api.get('/estimates', { query: { status: 'signed' } }))).toEqual([
      signed.id,
    ]);
    expect(idsOf(await ws.api.get('/estimates', { query: { status: 'declined' } }))).toEqual([]);
  });

  test.each([['approved'], ['DRAFT']])('status %j is 400 field status', async (status) => {
    const { ws } = await setup();
    expect400(await ws.api.get('/estimates', { query: { status }, invalid: true }), 'status');
  });

  test('job_id filters to one job', async () => {
    const { ws, jobId } = await setup();
    const otherJob = (await newJob(ws, { name: 'Garage' })).id;
    const mine = await newEstimate(ws, jobId);
    await newEstimate(ws, otherJob);
    expect(idsOf(await ws.api.get('/estimates', { query: { job_id: jobId } }))).toEqual([mine.id]);
    expect(
      idsOf(await ws.api.get('/estimates', { query: { job_id: jobId.toUpperCase() } })),
    ).toEqual([mine.id]);
  });

  test('a job_id naming no job matches nothing; one not a uuid is 400 field job_id', async () => {
    const { ws, jobId } = await setup();
    await newEstimate(ws, jobId);
    expect(idsOf(await ws.api.get('/estimates', { query: { job_id: UNKNOWN } }))).toEqual([]);
    expect400(
      await ws.api.get('/estimates', { query: { job_id: 'J-1001' }, invalid: true }),
      'job_id',
    );
  });

  test('estimate_number finds that estimate', async () => {
    const { ws, jobId } = await setup();
    await newEstimate(ws, jobId);
    const second = await newEstimate(ws, jobId);
    await newEstimate(ws, jobId);
    expect(idsOf(await ws.api.get('/estimates', { query: { estimate_number: 'E-1002' } }))).toEqual(
      [second.id],
    );
    expect(idsOf(await ws.api.get('/estimates', { query: { estimate_number: 'E-9999' } }))).toEqual(
      [],
    );
  });

  // decisions.md, Estimates: a blank number filters nothing, as a blank job_number search does.
  test('a blank estimate_number filters nothing', async () => {
    const { ws, jobId } = await setup();
    const first = await newEstimate(ws, jobId);
    const second = await newEstimate(ws, jobId);
    const res = await ws.api.get('/estimates', { query: { estimate_number: ' ' } });
    expect(idsOf(res)).toEqual([second.id, first.id]);
  });

  test('filters combine with AND', async () => {
    const { h, ws, jobId } = await setup();
    const otherJob = (await newJob(ws)).id;
    const target = await pricedEstimate(ws, jobId);
    await pricedEstimate(ws, jobId);
    const elsewhere = await pricedEstimate(ws, otherJob);
    await acted(h, target.id, 'send');
    await acted(h, elsewhere.id, 'send');
    const query = { status: 'sent', job_id: jobId };
    expect(idsOf(await ws.api.get('/estimates', { query }))).toEqual([target.id]);
  });

  test('created_after narrows to estimates made since then', async () => {
    const { h, ws, jobId } = await setup();
    await newEstimate(ws, jobId);
    const since = await advance(h, 10);
    const later = await newEstimate(ws, jobId);
    expect(idsOf(await ws.api.get('/estimates', { query: { created_after: since } }))).toEqual([
      later.id,
    ]);
  });

  test('updated_since finds an estimate changed since then', async () => {
    const { h, ws, jobId } = await setup();
    const old = await newEstimate(ws, jobId);
    await newEstimate(ws, jobId);
    const since = await advance(h, 10);
    await ok(ws.api.patch(`/estimates/${old.id}`, { title: 'Changed' }));
    expect(idsOf(await ws.api.get('/estimates', { query: { updated_since: since } }))).toEqual([
      old.id,
    ]);
  });
});

describe('GET /estimates: paging', () => {
  test('limit pages through every estimate once, newest first, by next_cursor', async () => {
    const { h, ws, jobId } = await setup();
    const made = await several(h, ws, jobId, 5);
    const first = await list(ws, { limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toEqual(expect.any(String));
    const walked = await walkPages(ws.api, '/estimates', { limit: 2 });
    expect(walked.pages).toBe(3);
    expect(idsIn(walked.data)).toEqual(made.map((e) => e.id).reverse());
  });

  test('filters apply on every page', async () => {
    const { h, ws, jobId } = await setup();
    const otherJob = (await newJob(ws)).id;
    const mine = [];
    for (let i = 0; i < 3; i++) {
      mine.push(await newEstimate(ws, jobId));
      await newEstimate(ws, otherJob);
      await advance(h, 1);
    }
    const walked = await walkPages(ws.api, '/estimates', { limit: 1, job_id: jobId });
    expect(idsIn(walked.data)).toEqual(mine.map((e) => e.id).reverse());
  });

  test('a cursor svc did not issue is 400 field cursor', async () => {
    const { ws } = await setup();
    expect400(await ws.api.get('/estimates', { query: { cursor: 'abc.def' } }), 'cursor');
  });

  test('a cursor of another list (/jobs) is 400 field cursor', async () => {
    const { ws } = await setup();
    await newJob(ws);
    const jobs = await ok(ws.api.get('/jobs', { query: { limit: 1 } }));
    expect(jobs.next_cursor).toEqual(expect.any(String));
    expect400(await ws.api.get('/estimates', { query: { cursor: jobs.next_cursor } }), 'cursor');
  });

  test('a limit that is not an integer is 400 field limit', async () => {
    const { ws } = await setup();
    expect400(await ws.api.get('/estimates', { query: { limit: 'two' }, invalid: true }), 'limit');
  });
});

describe('GET /jobs/{id}/estimates', () => {
  test("lists that job's estimates only, newest first", async () => {
    const { h, ws, jobId } = await setup();
    const otherJob = (await newJob(ws)).id;
    const made = await several(h, ws, jobId, 2);
    await newEstimate(ws, otherJob);
    const page = await ok(ws.api.get(`/jobs/${jobId}/estimates`));
    expect(page).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(idsIn(page.data)).toEqual(made.map((e) => e.id).reverse());
    expect(page.data[0]).toEqual(await getEstimate(ws, made[1]?.id));
  });

  test('pages by limit and cursor', async () => {
    const { h, ws, jobId } = await setup();
    const made = await several(h, ws, jobId, 3);
    const walked = await walkPages(ws.api, `/jobs/${jobId}/estimates`, { limit: 2 });
    expect(walked.pages).toBe(2);
    expect(idsIn(walked.data)).toEqual(made.map((e) => e.id).reverse());
  });

  test('takes the time filters of every paged list (created_after, updated_since)', async () => {
    const { h, ws, jobId } = await setup();
    const old = await newEstimate(ws, jobId);
    const since = await advance(h, 10);
    const later = await newEstimate(ws, jobId);
    const path = `/jobs/${jobId}/estimates`;
    expect(idsOf(await ws.api.get(path, { query: { created_after: since } }))).toEqual([later.id]);
    await advance(h, 10);
    const changedSince = await advance(h, 1);
    await ok(ws.api.patch(`/estimates/${old.id}`, { price: 500 }));
    expect(idsOf(await ws.api.get(path, { query: { updated_since: changedSince } }))).toEqual([
      old.id,
    ]);
  });

  test('an unknown job is 404 not_found', async () => {
    const { ws } = await setup();
    const res = await ws.api.get(`/jobs/${UNKNOWN}/estimates`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe("a deleted job's estimates", () => {
  test('vanish: 404 by id, gone from /estimates, /jobs/{id}/estimates 404', async () => {
    const { ws, jobId } = await setup();
    const otherJob = (await newJob(ws)).id;
    const gone = await newEstimate(ws, jobId);
    const kept = await newEstimate(ws, otherJob);
    await ok(ws.api.delete(`/jobs/${jobId}`));
    expect((await ws.api.get(`/estimates/${gone.id}`)).status).toBe(404);
    expect(idsOf(await ws.api.get('/estimates'))).toEqual([kept.id]);
    expect(idsOf(await ws.api.get('/estimates', { query: { job_id: jobId } }))).toEqual([]);
    expect(
      idsOf(await ws.api.get('/estimates', { query: { estimate_number: gone.estimate_number } })),
    ).toEqual([]);
    expect((await ws.api.get(`/jobs/${jobId}/estimates`)).status).toBe(404);
  });

  test('the control API cannot act on them either (404)', async () => {
    const { h, ws, jobId } = await setup();
    const gone = await pricedEstimate(ws, jobId);
    await ok(ws.api.delete(`/jobs/${jobId}`));
    for (const verb of ['send', 'view', 'decline']) {
      const res = await h.admin.post(`/estimates/${gone.id}/${verb}`);
      expect(res.status, verb).toBe(404);
    }
  });

  test('come back as they were when the job is restored', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    const sent = await acted(h, made.id, 'send');
    await ok(ws.api.delete(`/jobs/${jobId}`));
    await ok(h.admin.post(`/jobs/${jobId}/restore`));
    expect(await getEstimate(ws, made.id)).toEqual(sent);
    expect(idsOf(await ws.api.get('/estimates'))).toEqual([made.id]);
    expect(idsOf(await ws.api.get(`/jobs/${jobId}/estimates`))).toEqual([made.id]);
  });
});
