import { describe, expect, test } from 'vitest';
import {
  expectError,
  fresh,
  get,
  idsOf,
  newInvoice,
  newJob,
  ok,
  pay,
  UNKNOWN,
} from '../invoices/setup';

// GET /payments (filters job_id, invoice_id, payment_type) and GET /jobs/{id}/payments: spec,
// Payments and Pagination; decisions.md, Lists and Jobs (a deleted job's payments are gone with
// it until it is restored).

describe('GET /payments', () => {
  test('lists the workspace payments newest first, as GET of each returns it', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const a = await pay(ws, { job_id: job.id, amount: 1 });
    const b = await pay(ws, { job_id: job.id, amount: 2, status: 'expected' });
    const theirs = await h.workspace();
    await pay(theirs, { job_id: (await newJob(theirs)).id, amount: 3 });
    const list = await get(ws.api, '/payments');
    expect(list).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(list.data).toEqual([b, a]);
    expect(await get(ws.read, '/payments')).toEqual(list);
  });

  test('job_id filters', async () => {
    const { ws } = await fresh();
    const one = await newJob(ws);
    const two = await newJob(ws, { name: 'Two' });
    const a = await pay(ws, { job_id: one.id, amount: 1 });
    const b = await pay(ws, { job_id: two.id, amount: 2 });
    const c = await pay(ws, { job_id: one.id, amount: 3 });
    expect(idsOf(await get(ws.api, '/payments', { job_id: one.id }))).toEqual([c.id, a.id]);
    expect(idsOf(await get(ws.api, '/payments', { job_id: two.id }))).toEqual([b.id]);
    expect(idsOf(await get(ws.api, '/payments', { job_id: UNKNOWN }))).toEqual([]);
  });

  test('invoice_id filters; a payment on the job alone is on no invoice', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const one = await newInvoice(ws, { job_id: job.id });
    const two = await newInvoice(ws, { job_id: job.id });
    const a = await pay(ws, { job_id: job.id, invoice_id: one.id, amount: 1 });
    const b = await pay(ws, { job_id: job.id, invoice_id: two.id, amount: 2 });
    await pay(ws, { job_id: job.id, amount: 3 });
    expect(idsOf(await get(ws.api, '/payments', { invoice_id: one.id }))).toEqual([a.id]);
    expect(idsOf(await get(ws.api, '/payments', { invoice_id: two.id }))).toEqual([b.id]);
  });

  test('payment_type filters; an unknown one is 400 field payment_type', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const acv = await pay(ws, { job_id: job.id, amount: 1, payment_type: 'acv' });
    const other = await pay(ws, { job_id: job.id, amount: 2 });
    const acv2 = await pay(ws, { job_id: job.id, amount: 3, payment_type: 'acv' });
    expect(idsOf(await get(ws.api, '/payments', { payment_type: 'acv' }))).toEqual([
      acv2.id,
      acv.id,
    ]);
    expect(idsOf(await get(ws.api, '/payments', { payment_type: 'other' }))).toEqual([other.id]);
    expect(idsOf(await get(ws.api, '/payments', { payment_type: 'retail' }))).toEqual([]);
    const bad = await ws.api.get('/payments', { query: { payment_type: 'cash' }, invalid: true });
    expectError(bad, 400, 'invalid_request', 'payment_type');
  });

  test.each(['job_id', 'invoice_id'])('a %s that is no uuid is 400 naming it', async (key) => {
    const { ws } = await fresh();
    const res = await ws.api.get('/payments', { query: { [key]: 'nope' }, invalid: true });
    expectError(res, 400, 'invalid_request', key);
  });

  test('filters combine', async () => {
    const { ws } = await fresh();
    const one = await newJob(ws);
    const two = await newJob(ws, { name: 'Two' });
    const hit = await pay(ws, { job_id: one.id, amount: 1, payment_type: 'supplement' });
    await pay(ws, { job_id: one.id, amount: 2 });
    await pay(ws, { job_id: two.id, amount: 3, payment_type: 'supplement' });
    expect(
      idsOf(await get(ws.api, '/payments', { job_id: one.id, payment_type: 'supplement' })),
    ).toEqual([hit.id]);
  });

  test('pages with limit and cursor, none skipped or repeated', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const made: string[] = [];
    for (let i = 1; i <= 5; i++) {
      made.unshift((await pay(ws, { job_id: job.id, amount: i })).id);
      // Two payments made in one millisecond order by id (the keyset's tie-break), not by when
      // the test made them: a second apart, newest first is the order they were made in.
      await h.admin.post('/clock', { advance_seconds: 1 });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string | number> = { limit: 2 };
      if (cursor !== null) {
        query.cursor = cursor;
      }
      const page = await ok(ws.api.get('/payments', { query }));
      seen.push(...idsOf(page));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(made);
  });
});

describe('GET /payments/{id}', () => {
  test("an unknown payment, or another workspace's, is 404", async () => {
    const { h, ws } = await fresh();
    expectError(await ws.api.get(`/payments/${UNKNOWN}`), 404, 'not_found');
    const theirs = await h.workspace();
    const p = await pay(theirs, { job_id: (await newJob(theirs)).id, amount: 3 });
    expectError(await ws.api.get(`/payments/${p.id}`), 404, 'not_found');
  });
});

describe('GET /jobs/{id}/payments', () => {
  test("lists the job's payments and refunds only, newest first", async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const other = await newJob(ws, { name: 'Other' });
    const a = await pay(ws, { job_id: job.id, amount: 10 });
    await pay(ws, { job_id: other.id, amount: 20 });
    const r = await ok(h.admin.post(`/payments/${a.id}/refund`, { amount: 5 }));
    const list = await get(ws.api, `/jobs/${job.id}/payments`);
    expect(list).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(list.data).toEqual([r, a]);
  });

  test('an unknown job is 404', async () => {
    const { ws } = await fresh();
    expectError(await ws.api.get(`/jobs/${UNKNOWN}/payments`), 404, 'not_found');
  });
});

describe("a deleted job's payments", () => {
  test('are gone from GET and the lists, and their money with them, until the job is restored', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const keep = await newJob(ws, { name: 'Keep' });
    const p = await pay(ws, { job_id: job.id, amount: 10 });
    const k = await pay(ws, { job_id: keep.id, amount: 20 });
    await ok(ws.api.delete(`/jobs/${job.id}`));
    expectError(await ws.api.get(`/payments/${p.id}`), 404, 'not_found');
    expect(idsOf(await get(ws.api, '/payments'))).toEqual([k.id]);
    expectError(await h.admin.post(`/payments/${p.id}/refund`), 404, 'not_found');
    await ok(h.admin.post(`/jobs/${job.id}/restore`));
    expect(await get(ws.api, `/payments/${p.id}`)).toEqual(p);
    expect(idsOf(await get(ws.api, '/payments'))).toEqual([k.id, p.id]);
  });
});
