import { describe, expect, test } from 'vitest';
import { harness } from '../support/harness';
import { newContact, newJob, ownJobs, putPayment, type Setup, type Stage, setup } from './setup';

// Jobs are answered from JSON text kept between reads (src/resources/common/shown.ts). Each test
// reads a job, changes something the job shows (not the job), and reads it again, by id and in a
// list: the answer must follow, exactly as a freshly presented job would.

/** The job by id and as the list shows it. */
async function bothViews(s: Setup, id: string) {
  const one = (await s.ws.api.get(`/jobs/${id}`)).body;
  const listed = (await ownJobs(s)).body.data.find((j: { id: string }) => j.id === id);
  expect(listed).toEqual(one);
  return one;
}

describe('a job read again shows what changed around it', () => {
  test('its homeowner renamed, and then deleted', async () => {
    const s = await setup();
    const owner = await newContact(s.ws, { name: 'Dana Whitfield' });
    const job = await newJob(s.ws, { homeowner_id: owner.id });
    expect((await bothViews(s, job.id)).homeowner.name).toBe('Dana Whitfield');
    await s.ws.api.patch(`/contacts/${owner.id}`, { first_name: 'Dina', phone: '214 555 0101' });
    expect((await bothViews(s, job.id)).homeowner).toMatchObject({
      name: 'Dina Whitfield',
      phone: '(214) 555-0101',
    });
    await s.ws.api.delete(`/contacts/${owner.id}`);
    expect(await bothViews(s, job.id)).toMatchObject({ homeowner_id: null, homeowner: null });
  });

  test('a payment received on it', async () => {
    const s = await setup();
    const job = await newJob(s.ws, { rcv_amount: 10_000 });
    expect(await bothViews(s, job.id)).toMatchObject({ amount_received: 0, balance_due: 10_000 });
    putPayment(s.h, s.ws, job.id, 2_500);
    expect(await bothViews(s, job.id)).toMatchObject({
      amount_received: 2_500,
      balance_due: 7_500,
    });
  });

  test('its assignee renamed, and its column relabelled', async () => {
    const s = await setup();
    const [user] = s.users;
    const stage = s.insurance.stages[0] as Stage;
    const job = await newJob(s.ws, { assigned_to: user?.id, stage: stage.key });
    await bothViews(s, job.id);
    s.h.rt.store.transaction((tx) => {
      const scope = tx.workspace(s.ws.id);
      const rec = scope.get('users', user?.id as string);
      const column = scope.get('stages', stage.id);
      if (!rec || !column) {
        throw new Error('the seeded user and stage should exist');
      }
      scope.put('users', { ...rec, name: 'Renamed Teammate' });
      scope.put('stages', { ...column, label: 'Fresh Lead' });
    });
    expect(await bothViews(s, job.id)).toMatchObject({
      assigned_to_name: 'Renamed Teammate',
      assignee_names: ['Renamed Teammate'],
      stage_label: 'Fresh Lead',
    });
  });

  test('the address the caller used, in its links', async () => {
    const h = harness({ rateLimit: null, appUrlFromRequest: true });
    const ws = await h.workspace({ profile: 'empty' });
    const job = await newJob(ws);
    const at = async (host: string) =>
      (await ws.api.get(`/jobs/${job.id}`, { origin: `http://${host}` })).body;
    expect((await at('one.example:4010')).url).toBe(`http://one.example:4010/jobs/${job.id}`);
    expect((await at('two.example:4020')).url).toBe(`http://two.example:4020/jobs/${job.id}`);
    expect((await at('one.example:4010')).portal_url).toMatch(/^http:\/\/one\.example:4010\//);
  });
});
