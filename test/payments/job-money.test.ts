import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  dollars,
  fresh,
  get,
  idsOf,
  jobOf,
  newContact,
  newInvoice,
  newJob,
  ok,
  pay,
  refund,
  setStatus,
} from '../invoices/setup';

// A job's money as payments and invoices move it: decisions.md, Jobs (total_job_value: an
// insurance job is worth rcv + supplements, the estimate until an RCV is known; a retail job its
// final_amount, else the estimate; null when none is known. amount_received sums the payments no
// longer only expected, refunds netting; balance_due = total − received, never below zero, null
// while the total is unknown) and Money (exact cents).

describe('amount_received', () => {
  test('is 0 with no payments', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 5000 });
    expect(job).toMatchObject({ amount_received: 0, balance_due: 5000, total_job_value: 5000 });
  });

  test('sums received payments, leaves out expected ones, nets refunds', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 10000 });
    const a = await pay(ws, { job_id: job.id, amount: 3000 });
    await pay(ws, { job_id: job.id, amount: 1000, status: 'deposited' });
    await pay(ws, { job_id: job.id, amount: 2000, status: 'expected' });
    await refund(h, a.id, { amount: 500 });
    expect(await jobOf(ws, job.id)).toMatchObject({
      total_job_value: 10000,
      amount_received: 3500,
      balance_due: 6500,
    });
  });

  test('cents add up exactly: thirty payments of 0.1 are 3', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 10 });
    for (let i = 0; i < 30; i++) {
      await pay(ws, { job_id: job.id, amount: 0.1 });
    }
    expect(await jobOf(ws, job.id)).toMatchObject({ amount_received: 3, balance_due: 7 });
  });

  test("another job's payments do not count", async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 1000 });
    const other = await newJob(ws, { name: 'Other' });
    await pay(ws, { job_id: other.id, amount: 400 });
    expect((await jobOf(ws, job.id)).amount_received).toBe(0);
    expect((await jobOf(ws, other.id)).amount_received).toBe(400);
  });

  test('an expected payment coming in counts from then on', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 1000 });
    const p = await pay(ws, { job_id: job.id, amount: 400, status: 'expected' });
    expect((await jobOf(ws, job.id)).amount_received).toBe(0);
    await setStatus(h, p.id, 'sent_to_mortgage');
    expect(await jobOf(ws, job.id)).toMatchObject({ amount_received: 400, balance_due: 600 });
  });

  test('payments on invoices count on their job too', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 1000 });
    const inv = await newInvoice(ws, { job_id: job.id });
    await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 250 });
    await pay(ws, { job_id: job.id, amount: 50 });
    expect((await jobOf(ws, job.id)).amount_received).toBe(300);
  });
});

describe('balance_due', () => {
  test('never goes below zero', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 1000 });
    await pay(ws, { job_id: job.id, amount: 1200 });
    expect(await jobOf(ws, job.id)).toMatchObject({ amount_received: 1200, balance_due: 0 });
  });

  test('is null while the total is unknown', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    await pay(ws, { job_id: job.id, amount: 300 });
    expect(await jobOf(ws, job.id)).toMatchObject({
      total_job_value: null,
      amount_received: 300,
      balance_due: null,
    });
  });

  test('follows the total an invoice sets: a contract on a retail job', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { job_type: 'retail' });
    await pay(ws, { job_id: job.id, amount: 2000, payment_type: 'retail' });
    expect((await jobOf(ws, job.id)).balance_due).toBeNull();
    await newInvoice(ws, {
      job_id: job.id,
      purpose: 'contract',
      line_items: [{ name: 'Contract', unit_price: 9000 }],
    });
    expect(await jobOf(ws, job.id)).toMatchObject({
      final_amount: 9000,
      total_job_value: 9000,
      amount_received: 2000,
      balance_due: 7000,
    });
  });

  test('follows the claim: rcv from a claim_scope invoice plus supplements', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { estimated_amount: 5000 });
    await pay(ws, { job_id: job.id, amount: 1000, payment_type: 'acv', payer_type: 'insurance' });
    expect((await jobOf(ws, job.id)).balance_due).toBe(4000);
    await newInvoice(ws, {
      job_id: job.id,
      purpose: 'claim_scope',
      line_items: [{ name: 'Scope', unit_price: 8000.1 }],
    });
    await newInvoice(ws, {
      job_id: job.id,
      purpose: 'supplement',
      line_items: [{ name: 'Supplement', unit_price: 999.2 }],
    });
    expect(await jobOf(ws, job.id)).toMatchObject({
      rcv_amount: 8000.1,
      supplements_amount: 999.2,
      total_job_value: 8999.3,
      amount_received: 1000,
      balance_due: 7999.3,
    });
  });
});

describe('the job lists show the same money as GET', () => {
  test('/jobs and /contacts/{id}/jobs', async () => {
    const { ws } = await fresh();
    const owner = await newContact(ws);
    const a = await newJob(ws, { rcv_amount: 1000, homeowner_id: owner.id });
    const b = await newJob(ws, { rcv_amount: 2000, homeowner_id: owner.id });
    await pay(ws, { job_id: a.id, amount: 100.1 });
    await pay(ws, { job_id: a.id, amount: 0.2 });
    await pay(ws, { job_id: b.id, amount: 2500 });
    const got = [await jobOf(ws, b.id), await jobOf(ws, a.id)];
    expect(got.map((j) => [j.amount_received, j.balance_due])).toEqual([
      [2500, 0],
      [100.3, 899.7],
    ]);
    expect((await get(ws.api, '/jobs')).data).toEqual(got);
    expect((await get(ws.api, `/contacts/${owner.id}/jobs`)).data).toEqual(got);
  });
});

describe('amount_received (property)', () => {
  interface Move {
    cents: number;
    status: 'expected' | 'received' | 'deposited';
    /** cents to refund of it afterwards (received ones only), 0 for none */
    refundCents: number;
  }
  const move: fc.Arbitrary<Move> = fc
    .record({
      cents: fc.integer({ min: 1, max: 5_000_000 }),
      status: fc.constantFrom('expected' as const, 'received' as const, 'deposited' as const),
      share: fc.integer({ min: 0, max: 100 }),
    })
    .map(({ cents, status, share }) => ({
      cents,
      status,
      refundCents: status === 'expected' ? 0 : Math.floor((cents * share) / 100),
    }));

  test('is the exact sum in cents of what came in, less what went back', async () => {
    const { h, ws } = await fresh();
    await fc.assert(
      fc.asyncProperty(
        fc.array(move, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        async (moves, rcvCents) => {
          const job = await newJob(ws, { rcv_amount: rcvCents / 100 });
          let received = 0n;
          for (const m of moves) {
            const p = await pay(ws, { job_id: job.id, amount: m.cents / 100, status: m.status });
            if (m.status !== 'expected') {
              received += BigInt(m.cents);
            }
            if (m.refundCents > 0) {
              await ok(h.admin.post(`/payments/${p.id}/refund`, { amount: m.refundCents / 100 }));
              received -= BigInt(m.refundCents);
            }
          }
          const balance = BigInt(rcvCents) - received;
          expect(await jobOf(ws, job.id)).toMatchObject({
            total_job_value: dollars(BigInt(rcvCents)),
            amount_received: dollars(received),
            balance_due: dollars(balance > 0n ? balance : 0n),
          });
        },
      ),
      { numRuns: 20 },
    );
  });
});

// decisions.md, Jobs: the job keeps its money in hand, so a client syncing jobs by updated_since
// sees a payment's effect.
describe('the job is touched by its money', () => {
  test("a payment moves the job's updated_at; GET /jobs?updated_since finds it", async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 4000 });
    await h.admin.post('/clock', { advance_seconds: 60 });
    const since = (await h.admin.get('/clock')).body.now;
    await pay(ws, { job_id: job.id, amount: 1000 });
    const after = await jobOf(ws, job.id);
    expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(since));
    expect(after).toMatchObject({ amount_received: 1000, balance_due: 3000 });
    const listed = await get(ws.api, '/jobs', { updated_since: since });
    expect(idsOf(listed)).toEqual([job.id]);
  });

  test('a job stored before it kept its money in hand shows the sum of its payments', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 4000 });
    await pay(ws, { job_id: job.id, amount: 1000.1 });
    await pay(ws, { job_id: job.id, amount: 0.2 });
    // As a data file written before the field existed holds it.
    h.rt.store.transaction((tx) => {
      const scoped = tx.workspace(ws.id);
      const { amount_received: _gone, ...stored } = scoped.get('jobs', job.id) ?? {};
      scoped.put('jobs', stored as never);
    });
    expect(await jobOf(ws, job.id)).toMatchObject({ amount_received: 1000.3, balance_due: 2999.7 });
  });
});
