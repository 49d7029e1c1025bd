import { describe, expect, test } from 'vitest';
import { newContact, newJob, ownJobs, putPayment, setup } from './setup';

describe('total_job_value', () => {
  // decisions.md: an insurance job is worth its claim, rcv + supplements (the estimate until an
  // RCV is known); a retail job its contract, final_amount (else the estimate); null when none.
  test.each([
    ['insurance', {}, null],
    ['insurance', { estimated_amount: 9000 }, 9000],
    ['insurance', { rcv_amount: 12000 }, 12000],
    ['insurance', { rcv_amount: 12000, supplements_amount: 1500.5 }, 13500.5],
    ['insurance', { rcv_amount: 12000, estimated_amount: 9000 }, 12000],
    ['insurance', { supplements_amount: 1500, estimated_amount: 9000 }, 9000],
    ['insurance', { rcv_amount: 12000, final_amount: 20000 }, 12000],
    ['insurance', { rcv_amount: 0.1, supplements_amount: 0.2 }, 0.3],
    ['insurance', { rcv_amount: 0 }, 0],
    ['retail', {}, null],
    ['retail', { estimated_amount: 8000 }, 8000],
    ['retail', { final_amount: 9500, estimated_amount: 8000 }, 9500],
    ['retail', { rcv_amount: 12000, supplements_amount: 100 }, null],
    ['retail', { rcv_amount: 12000, estimated_amount: 8000 }, 8000],
    ['retail', { final_amount: 0, estimated_amount: 8000 }, 0],
  ])('a %s job with %j is worth %s', async (job_type, amounts, total) => {
    const { ws } = await setup();
    const job = await newJob(ws, { job_type, ...amounts });
    expect(job.total_job_value).toBe(total);
    expect(job.balance_due).toBe(total);
    expect(job.amount_received).toBe(0);
  });

  test('amounts are kept to the cent, halves away from zero, so the total is the sum of what is shown', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, {
      rcv_amount: 10.555,
      supplements_amount: 0.001,
      deductible: 1.005,
    });
    expect(job).toMatchObject({ rcv_amount: 10.56, supplements_amount: 0, deductible: 1.01 });
    expect(job.total_job_value).toBe(10.56);
    const patched = await ws.api.patch(`/jobs/${job.id}`, {
      supplements_amount: 2.675,
      acv_amount: 999_999_999.995,
      final_amount: 0.004,
    });
    expect(patched.body).toMatchObject({
      supplements_amount: 2.68,
      acv_amount: 1_000_000_000,
      final_amount: 0,
      total_job_value: 13.24,
    });
    expect((await ws.api.get(`/jobs/${job.id}`)).body).toEqual(patched.body);
  });

  test('changing job_type changes the figure the total follows', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, { rcv_amount: 12000, final_amount: 9500 });
    expect(job.total_job_value).toBe(12000);
    const retail = await ws.api.patch(`/jobs/${job.id}`, { job_type: 'retail' });
    expect(retail.body.total_job_value).toBe(9500);
  });

  test('clearing the RCV falls back to the estimate', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, { rcv_amount: 12000, estimated_amount: 9000 });
    const res = await ws.api.patch(`/jobs/${job.id}`, { rcv_amount: null });
    expect(res.body).toMatchObject({ total_job_value: 9000, balance_due: 9000 });
  });

  test('lists and GET show the same money as create', async () => {
    const s = await setup();
    const job = await newJob(s.ws, { rcv_amount: 12000, supplements_amount: 500 });
    const listed = (await ownJobs(s)).body.data[0];
    const got = (await s.ws.api.get(`/jobs/${job.id}`)).body;
    for (const seen of [listed, got]) {
      expect(seen).toMatchObject({
        total_job_value: 12500,
        amount_received: 0,
        balance_due: 12500,
      });
    }
  });
});

describe('amount_received and balance_due', () => {
  test('amount_received is 0 with no payments, and balance_due the whole total', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, { rcv_amount: 10000 });
    expect(job).toMatchObject({ amount_received: 0, balance_due: 10000 });
  });

  test('balance_due is null while the total is unknown', async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws);
    putPayment(h, ws, job.id, 300);
    const res = await ws.api.get(`/jobs/${job.id}`);
    expect(res.body).toMatchObject({
      total_job_value: null,
      amount_received: 300,
      balance_due: null,
    });
  });

  test('received payments count, expected ones do not, refunds net', async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws, { rcv_amount: 10000 });
    putPayment(h, ws, job.id, 3000, 'received');
    putPayment(h, ws, job.id, 1000, 'deposited');
    putPayment(h, ws, job.id, 2000, 'expected');
    putPayment(h, ws, job.id, -500, 'received');
    const res = await ws.api.get(`/jobs/${job.id}`);
    expect(res.body).toMatchObject({ amount_received: 3500, balance_due: 6500 });
  });

  test("another job's payments do not count", async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws, { rcv_amount: 10000 });
    const other = await newJob(ws);
    putPayment(h, ws, other.id, 4000);
    expect((await ws.api.get(`/jobs/${job.id}`)).body.amount_received).toBe(0);
  });

  test('every list shows each job its own money, exactly as GET of that job does', async () => {
    const s = await setup();
    const owner = await newContact(s.ws);
    const jobs = [];
    for (const [i, amounts] of [[300.1, 0.2], [], [1200, -200.35, 99.99]].entries()) {
      const job = await newJob(s.ws, { rcv_amount: 1000 * (i + 1), homeowner_id: owner.id });
      for (const amount of amounts) {
        putPayment(s.h, s.ws, job.id, amount);
      }
      putPayment(s.h, s.ws, job.id, 5000, 'expected');
      jobs.push(job);
    }
    const got = await Promise.all(
      jobs.map(async (j) => (await s.ws.api.get(`/jobs/${j.id}`)).body),
    );
    expect(got.map((j) => j.amount_received)).toEqual([300.3, 0, 1099.64]);
    const lists = [
      await ownJobs(s),
      await s.ws.api.get('/jobs/search', { query: { contact_id: owner.id } }),
      await s.ws.api.get(`/contacts/${owner.id}/jobs`),
    ];
    for (const list of lists) {
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([...got].reverse());
    }
  });

  test('balance_due never goes below zero', async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws, { rcv_amount: 1000 });
    putPayment(h, ws, job.id, 1200);
    const res = await ws.api.get(`/jobs/${job.id}`);
    expect(res.body).toMatchObject({ amount_received: 1200, balance_due: 0 });
  });
});

describe('money fields', () => {
  test.each([0, 1e9, 12345.67])('%s is an accepted amount', async (amount) => {
    const { ws } = await setup();
    const job = await newJob(ws, { rcv_amount: amount, final_amount: amount });
    expect(job.rcv_amount).toBe(amount);
    expect(job.final_amount).toBe(amount);
  });
});
