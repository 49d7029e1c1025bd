import { describe, expect, test } from 'vitest';
import { advance, amendJob, idsOf, newContact, newJob, setup, UNKNOWN } from './setup';

// Values no seeded record carries, so a search finds only what the test made.
const TARGET = {
  name: 'Zyzzyva Roof Replacement',
  address: '77 Quillfeather Lane',
  city: 'Xanadu Falls',
  state: 'AK',
  postal_code: '99950',
  claim_number: 'ZQ-4471-B',
};
const DECOY = {
  name: 'Quokka Gutters',
  address: '12 Marrowbone Court',
  city: 'Yarrowville',
  state: 'HI',
  postal_code: '96799',
  claim_number: 'ZQ-4471',
};

describe('GET /jobs/search: what each criterion matches', () => {
  test.each([
    ['address', 'Quillfeather'], // part of the street
    ['address', 'quillfeather lane'], // any case
    ['address', '77 QUILLFEATHER'],
    ['address', 'Xanadu Falls'], // the city
    ['address', '99950'], // the ZIP
    ['address', 'Lane Xanadu'], // across street and city
    ['address', 'ak 99950'], // state and ZIP
    ['name', 'zyzzyva'], // part of the name, any case
    ['name', 'ROOF REPL'],
    ['claim_number', 'ZQ-4471-B'],
    ['claim_number', 'zq-4471-b'], // whole, any case
  ])('%s=%j finds the job and not the decoy', async (criterion, given) => {
    const { ws } = await setup();
    const target = await newJob(ws, TARGET);
    await newJob(ws, DECOY);
    const res = await ws.api.get('/jobs/search', { query: { [criterion]: given } });
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([target.id]);
  });

  test.each([
    ['job_number', 'J-10'], // part of a number is not the number
    ['claim_number', 'ZQ-447'],
    ['claim_number', '4471-B'],
    ['name', 'Zyzzyva Gutters'],
    ['address', 'Quillfeather Court'],
  ])('%s=%j matches nothing (whole numbers, partial text in order)', async (criterion, value) => {
    const { ws } = await setup();
    await newJob(ws, TARGET);
    await newJob(ws, DECOY);
    const res = await ws.api.get('/jobs/search', { query: { [criterion]: value } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  test('job_number matches whole and in any case', async () => {
    const { ws } = await setup();
    const target = await newJob(ws, TARGET);
    await newJob(ws, DECOY);
    for (const value of [target.job_number, target.job_number.toLowerCase()]) {
      const res = await ws.api.get('/jobs/search', { query: { job_number: value } });
      expect(idsOf(res), value).toEqual([target.id]);
    }
    const part = await ws.api.get('/jobs/search', {
      query: { job_number: target.job_number.slice(0, -1) },
    });
    expect(idsOf(part)).not.toContain(target.id);
  });

  test('claim_number matches whole: ZQ-4471 finds only the decoy, not ZQ-4471-B', async () => {
    const { ws } = await setup();
    await newJob(ws, TARGET);
    const decoy = await newJob(ws, DECOY);
    const res = await ws.api.get('/jobs/search', { query: { claim_number: 'zq-4471' } });
    expect(idsOf(res)).toEqual([decoy.id]);
  });

  test('contact_id finds jobs where the person is homeowner, adjuster, secondary contact or secondary adjuster', async () => {
    const { h, ws } = await setup();
    const person = await newContact(ws);
    const owner = await newJob(ws, { homeowner_id: person.id });
    await advance(h, 1);
    const adjuster = await newJob(ws, { adjuster_id: person.id });
    await advance(h, 1);
    const secondary = await newJob(ws);
    await amendJob(h, ws, secondary.id, { secondary_contact_ids: [person.id] });
    await advance(h, 1);
    const secondaryAdjuster = await newJob(ws);
    await amendJob(h, ws, secondaryAdjuster.id, { secondary_adjuster_ids: [person.id] });
    await newJob(ws);
    const res = await ws.api.get('/jobs/search', { query: { contact_id: person.id } });
    expect(idsOf(res)).toEqual([secondaryAdjuster.id, secondary.id, adjuster.id, owner.id]);
  });

  test('a contact_id naming no one finds nothing', async () => {
    const { ws } = await setup();
    await newJob(ws);
    const res = await ws.api.get('/jobs/search', { query: { contact_id: UNKNOWN } });
    expect(res.body.data).toEqual([]);
  });

  test('the address line as written, with commas, finds the job', async () => {
    const { ws } = await setup();
    const target = await newJob(ws, TARGET);
    const res = await ws.api.get('/jobs/search', {
      query: { address: '77 Quillfeather Lane, Xanadu Falls, AK 99950' },
    });
    expect(idsOf(res)).toEqual([target.id]);
  });
});

describe('GET /jobs/search: the result', () => {
  test('criteria longer than any field can hold find nothing, and are no error', async () => {
    const { ws } = await setup();
    for (const [key, value] of [
      ['address', 'a'.repeat(400)],
      ['name', 'n'.repeat(300)],
      ['job_number', 'J'.repeat(100)],
      ['claim_number', 'C'.repeat(200)],
    ] as [string, string][]) {
      const res = await ws.api.get('/jobs/search', { query: { [key]: value } });
      expect(res.status, key).toBe(200);
      expect(res.body.data).toEqual([]);
    }
  });

  test('no criteria gives an empty list, never the newest jobs', async () => {
    const { ws } = await setup();
    await newJob(ws, TARGET);
    const res = await ws.api.get('/jobs/search');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  test('only a limit is still no criteria: an empty list', async () => {
    const { ws } = await setup();
    await newJob(ws, TARGET);
    const res = await ws.api.get('/jobs/search', { query: { limit: 5 } });
    expect(res.body.data).toEqual([]);
  });

  test('criteria combine: a job must match every one', async () => {
    const { ws } = await setup();
    const both = await newJob(ws, TARGET);
    await newJob(ws, {
      ...TARGET,
      address: '1 Other Road',
      city: 'Elsewhere',
      postal_code: '10001',
    });
    await newJob(ws, { ...DECOY, address: TARGET.address });
    const res = await ws.api.get('/jobs/search', {
      query: { name: 'zyzzyva', address: 'quillfeather' },
    });
    expect(idsOf(res)).toEqual([both.id]);
  });

  test('a criterion that matches nothing empties the result, whatever the others match', async () => {
    const { ws } = await setup();
    await newJob(ws, TARGET);
    const res = await ws.api.get('/jobs/search', {
      query: { name: 'zyzzyva', claim_number: 'NOPE-1' },
    });
    expect(res.body.data).toEqual([]);
  });

  test('newest first, not paged: up to limit, has_more false and next_cursor null', async () => {
    const { h, ws } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push((await newJob(ws, { ...TARGET, name: `Zyzzyva ${i}` })).id);
      await advance(h, 1);
    }
    const all = await ws.api.get('/jobs/search', { query: { name: 'zyzzyva' } });
    expect(idsOf(all)).toEqual([...ids].reverse());
    const two = await ws.api.get('/jobs/search', { query: { name: 'zyzzyva', limit: 2 } });
    expect(idsOf(two)).toEqual([ids[3], ids[2]]);
    expect(two.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
  });

  test('archived jobs are found', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, TARGET);
    await ws.api.patch(`/jobs/${job.id}`, { archived: true });
    const res = await ws.api.get('/jobs/search', { query: { name: 'zyzzyva' } });
    expect(idsOf(res)).toEqual([job.id]);
    expect(res.body.data[0].archived).toBe(true);
  });

  test('deleted jobs are not found', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, TARGET);
    await ws.api.delete(`/jobs/${job.id}`);
    const res = await ws.api.get('/jobs/search', { query: { name: 'zyzzyva' } });
    expect(res.body.data).toEqual([]);
  });

  test("another workspace's jobs are not found", async () => {
    const { h, ws } = await setup();
    const other = await setup('small', h);
    await newJob(other.ws, TARGET);
    const res = await ws.api.get('/jobs/search', { query: { name: 'zyzzyva' } });
    expect(res.body.data).toEqual([]);
  });

  test('a read-only key can search', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, TARGET);
    const res = await ws.read.get('/jobs/search', { query: { claim_number: TARGET.claim_number } });
    expect(idsOf(res)).toEqual([job.id]);
  });

  test('a contact_id that is not a uuid is 400 with field contact_id', async () => {
    const { ws } = await setup();
    const res = await ws.api.get('/jobs/search', { query: { contact_id: 'dana' }, invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'contact_id' });
  });
});
