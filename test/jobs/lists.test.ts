import { describe, expect, test } from 'vitest';
import { idsIn, walkPages } from '../support/pages';
import {
  advance,
  amendJob,
  idsOf,
  newContact,
  newJob,
  ownJobs,
  type Setup,
  setup,
  UNKNOWN,
} from './setup';

/** Makes jobs one second apart (so newest-first order is certain); answers their ids. */
async function jobsInOrder(s: Setup, bodies: Record<string, unknown>[]): Promise<string[]> {
  const ids: string[] = [];
  for (const body of bodies) {
    ids.push((await newJob(s.ws, body)).id);
    await advance(s.h, 1);
  }
  return ids;
}

describe('GET /jobs', () => {
  test('answers the list envelope, newest first', async () => {
    const s = await setup();
    const ids = await jobsInOrder(s, [{}, {}, {}]);
    const res = await ownJobs(s);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(idsOf(res)).toEqual([...ids].reverse());
    expect(res.body.data[0].object).toBe('job');
  });

  test('an empty workspace lists no jobs', async () => {
    const { ws } = await setup('empty');
    const res = await ws.api.get('/jobs');
    expect(res.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  test('a read-only key can list jobs', async () => {
    const s = await setup();
    const [id] = await jobsInOrder(s, [{}]);
    const res = await s.ws.read.get('/jobs', { query: { created_after: s.since } });
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([id]);
  });

  test("another workspace's jobs are never listed", async () => {
    const s = await setup();
    const other = await setup('small', s.h);
    await newJob(other.ws);
    expect((await ownJobs(s)).body.data).toEqual([]);
  });

  test('pages follow next_cursor to the end, each job once, newest first', async () => {
    const s = await setup();
    const ids = await jobsInOrder(s, [{}, {}, {}, {}, {}]);
    const walked = await walkPages(s.ws.api, '/jobs', { created_after: s.since, limit: 2 });
    expect(walked.pages).toBe(3);
    expect(idsIn(walked.data)).toEqual([...ids].reverse());
  });

  test('a cursor issued by another list is 400 with field cursor', async () => {
    const s = await setup();
    await newContact(s.ws);
    await newContact(s.ws, { name: 'Lee Park' });
    const { next_cursor } = (await s.ws.api.get('/contacts', { query: { limit: 1 } })).body;
    expect(next_cursor).toEqual(expect.any(String));
    const res = await s.ws.api.get('/jobs', { query: { cursor: next_cursor } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'cursor' });
  });
});

describe('filters', () => {
  test('stage keeps the jobs in that stage (by key)', async () => {
    const s = await setup();
    const [, filed] = await jobsInOrder(s, [
      {},
      { stage: 'claim_filed' },
      { stage: 'retail_lead' },
    ]);
    const res = await ownJobs(s, { stage: 'claim_filed' });
    expect(idsOf(res)).toEqual([filed]);
  });

  test('pipeline_id keeps the jobs on that board', async () => {
    const s = await setup();
    const [, a, b] = await jobsInOrder(s, [
      {},
      { stage: 'retail_lead' },
      { pipeline_id: s.retail.id, stage: 'Scheduled' },
    ]);
    expect(idsOf(await ownJobs(s, { pipeline_id: s.retail.id }))).toEqual([b, a]);
  });

  test('stage and pipeline_id together must both hold', async () => {
    const s = await setup();
    await jobsInOrder(s, [{ stage: 'claim_filed' }]);
    const res = await ownJobs(s, { stage: 'claim_filed', pipeline_id: s.retail.id });
    expect(res.body.data).toEqual([]);
  });

  test.each(['insurance', 'retail'])('job_type=%s keeps jobs of that type', async (type) => {
    const s = await setup();
    const [ins, ret] = await jobsInOrder(s, [{ job_type: 'insurance' }, { job_type: 'retail' }]);
    expect(idsOf(await ownJobs(s, { job_type: type }))).toEqual([type === 'insurance' ? ins : ret]);
  });

  test('assigned_to matches the primary assignee and any co-assignee', async () => {
    const s = await setup();
    const [a, b, c] = [s.users[0]?.id ?? '', s.users[1]?.id ?? '', s.users[2]?.id ?? ''];
    const [primary, coAssigned, neither] = await jobsInOrder(s, [
      { assigned_to: a },
      { assigned_to: b },
      { assigned_to: c },
    ]);
    await amendJob(s.h, s.ws, coAssigned ?? '', { assignee_ids: [b, a] });
    expect(idsOf(await ownJobs(s, { assigned_to: a }))).toEqual([coAssigned, primary]);
    expect(idsOf(await ownJobs(s, { assigned_to: c }))).toEqual([neither]);
  });

  test('contact_id matches the homeowner, the adjuster, a secondary contact and a secondary adjuster', async () => {
    const s = await setup();
    const person = await newContact(s.ws);
    const someoneElse = await newContact(s.ws, { name: 'Lee Park' });
    const [owner, adjuster, secondary, secondaryAdj] = await jobsInOrder(s, [
      { homeowner_id: person.id },
      { adjuster_id: person.id },
      { homeowner_id: someoneElse.id },
      {},
      {},
    ]);
    await amendJob(s.h, s.ws, secondary ?? '', { secondary_contact_ids: [person.id] });
    await amendJob(s.h, s.ws, secondaryAdj ?? '', { secondary_adjuster_ids: [person.id] });
    const res = await ownJobs(s, { contact_id: person.id });
    expect(idsOf(res)).toEqual([secondaryAdj, secondary, adjuster, owner]);
    expect(res.body.data[1].secondary_contact_ids).toEqual([person.id]);
  });

  test.each([
    ['pipeline_id', UNKNOWN],
    ['assigned_to', UNKNOWN],
    ['contact_id', UNKNOWN],
  ])('%s naming nothing in the workspace matches no job (not 400)', async (name, value) => {
    const s = await setup();
    await jobsInOrder(s, [{}]);
    const res = await ownJobs(s, { [name]: value });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  test('filters combine: every one must hold', async () => {
    const s = await setup();
    const rep = s.users[1]?.id ?? '';
    const [match] = await jobsInOrder(s, [
      { job_type: 'retail', stage: 'claim_filed', assigned_to: rep },
      { job_type: 'insurance', stage: 'claim_filed', assigned_to: rep },
      { job_type: 'retail', stage: 'lead', assigned_to: rep },
      { job_type: 'retail', stage: 'claim_filed' },
    ]);
    const res = await ownJobs(s, { job_type: 'retail', stage: 'claim_filed', assigned_to: rep });
    expect(idsOf(res)).toEqual([match]);
  });

  test.each([
    ['stage', 'negotiating'],
    ['stage', 'Claim Filed'], // a label is not a key
    ['pipeline_id', 'retail'],
    ['job_type', 'commercial'],
    ['assigned_to', 'me'],
    ['contact_id', '12345'],
    ['archived', 'yes'],
    ['limit', 'ten'],
    ['created_after', 'yesterday'],
    ['created_before', '2026-02-30'],
    ['updated_since', 'soon'],
  ])('%s=%j is 400 invalid_request naming the field', async (name, value) => {
    const s = await setup();
    const res = await s.ws.api.get('/jobs', { query: { [name]: value }, invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: name });
  });
});

describe('archived', () => {
  const cases: [string, Record<string, string>, ('live' | 'archived')[]][] = [
    ['omitted: live only', {}, ['live']],
    ['false: live only', { archived: 'false' }, ['live']],
    ['true: archived only', { archived: 'true' }, ['archived']],
    ['any: both', { archived: 'any' }, ['archived', 'live']],
  ];
  test.each(cases)('archived %s', async (_case, query, expected) => {
    const s = await setup();
    const [live, archived] = await jobsInOrder(s, [{}, {}]);
    expect((await s.ws.api.patch(`/jobs/${archived}`, { archived: true })).status).toBe(200);
    const ids = { live, archived };
    expect(idsOf(await ownJobs(s, query))).toEqual(expected.map((k) => ids[k]));
  });
});

describe('time filters', () => {
  test('created_after is inclusive and created_before exclusive, on the clock', async () => {
    const s = await setup();
    const [old] = await jobsInOrder(s, [{}]);
    const middle = await advance(s.h, 3600);
    const [fresh] = await jobsInOrder(s, [{}]);
    expect(idsOf(await s.ws.api.get('/jobs', { query: { created_after: middle } }))).toEqual([
      fresh,
    ]);
    expect(idsOf(await ownJobs(s, { created_before: middle }))).toEqual([old]);
  });

  test('updated_since keeps the jobs changed at or after the instant', async () => {
    const s = await setup();
    const [a, b] = await jobsInOrder(s, [{}, {}]);
    const since = await advance(s.h, 60);
    await s.ws.api.patch(`/jobs/${a}`, { city: 'Frisco' });
    const res = await s.ws.api.get('/jobs', { query: { updated_since: since } });
    expect(idsOf(res)).toEqual([a]);
    expect(idsOf(res)).not.toContain(b);
  });
});
