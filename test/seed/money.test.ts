import { describe, expect, test } from 'vitest';
import { type Client, harness, type Json } from '../support/harness';
import { walkPages } from '../support/pages';

// Issue 15: the demo profile carries coherent money. Read back through the API, a demo
// workspace's payments add up to every job's and every invoice's figures, to the cent.

const all = async (client: Client, path: string, query: Record<string, string> = {}) =>
  (await walkPages(client, path, { ...query, limit: 200 })).data;

const cents = (n: number) => Math.round(n * 100);
const sumCents = (xs: Json[]) => xs.reduce((t: number, p: Json) => t + cents(p.amount), 0);
const PAYABLE = new Set(['sent', 'viewed', 'partially_paid', 'overdue']);

async function demo(seed: number) {
  const h = harness({ rateLimit: null });
  const ws = await h.workspace({ profile: 'demo', seed });
  const [jobs, estimates, invoices, payments] = await Promise.all([
    all(ws.api, '/jobs', { archived: 'any' }),
    all(ws.api, '/estimates'),
    all(ws.api, '/invoices'),
    all(ws.api, '/payments'),
  ]);
  return { h, ws, jobs, estimates, invoices, payments };
}

describe('demo money', () => {
  test.each([[1], [2], [3]])(
    'seed %i: estimates in every status, invoices in every status, refunds among the payments',
    async (seed) => {
      const { estimates, invoices, payments } = await demo(seed);
      expect(new Set(estimates.map((e) => e.status))).toEqual(
        new Set(['draft', 'sent', 'viewed', 'signed', 'expired', 'declined']),
      );
      expect(new Set(invoices.map((i) => i.status))).toEqual(
        new Set([
          'draft',
          'sent',
          'viewed',
          'partially_paid',
          'paid',
          'overdue',
          'void',
          'bad_debt',
        ]),
      );
      expect(payments.some((p) => p.is_refund)).toBe(true);
    },
  );

  test.each([[1], [2], [3]])(
    "seed %i: each job's amount_received is the sum of its received payments, and its balance follows",
    async (seed) => {
      const { jobs, payments } = await demo(seed);
      expect(payments.length).toBeGreaterThan(20);
      for (const job of jobs) {
        const mine = payments.filter((p) => p.job_id === job.id && p.status !== 'expected');
        expect(cents(job.amount_received), job.job_number).toBe(sumCents(mine));
        if (job.total_job_value === null) {
          expect(job.balance_due).toBeNull();
        } else {
          expect(cents(job.balance_due)).toBe(
            Math.max(cents(job.total_job_value) - cents(job.amount_received), 0),
          );
        }
      }
    },
  );

  test.each([[1], [2], [3]])(
    "seed %i: each invoice's amount_paid sums its payments; balance, status and pay page agree",
    async (seed) => {
      const { jobs, invoices, payments } = await demo(seed);
      const jobOf = new Map(jobs.map((j) => [j.id, j]));
      for (const inv of invoices) {
        const on = payments.filter((p) => p.invoice_id === inv.id && p.status !== 'expected');
        const paid = sumCents(on);
        expect(cents(inv.amount_paid), inv.invoice_number).toBe(paid);
        expect(cents(inv.total_amount)).toBe(
          cents(inv.subtotal) - cents(inv.discount_amount ?? 0) + cents(inv.tax_amount ?? 0),
        );
        expect(cents(inv.balance_due)).toBe(Math.max(cents(inv.total_amount) - paid, 0));
        expect(inv.status === 'paid').toBe(
          paid > 0 && inv.balance_due === 0 && inv.status !== 'void',
        );
        if (['draft', 'sent', 'viewed'].includes(inv.status)) {
          expect(paid).toBe(0);
        }
        if (inv.status === 'partially_paid') {
          expect(paid).toBeGreaterThan(0);
        }
        expect(inv.paid_at !== null).toBe(inv.status === 'paid');
        expect(inv.payment_url !== null).toBe(PAYABLE.has(inv.status));
        expect(inv.sent_at === null).toBe(
          inv.status === 'draft' || (inv.status === 'void' && inv.sent_at === null),
        );
        for (const p of on) {
          expect(p.job_id).toBe(inv.job_id);
        }
        // decisions.md, Invoices: the purpose fills the job figure.
        const job = jobOf.get(inv.job_id);
        if (inv.purpose === 'deductible') {
          expect(job?.deductible).toBe(inv.total_amount);
        }
        if (inv.purpose === 'contract') {
          expect(job?.final_amount).toBe(inv.total_amount);
        }
        if (inv.purpose === 'supplement') {
          const sum = invoices
            .filter(
              (i) => i.job_id === inv.job_id && i.purpose === 'supplement' && i.status !== 'void',
            )
            .reduce((t, i) => t + cents(i.total_amount), 0);
          expect(cents(job?.supplements_amount ?? 0)).toBe(sum);
        }
      }
    },
  );

  test('no seeded payment is received or deposited after today (US Central)', async () => {
    const { h, payments } = await demo(5);
    const now = Date.parse((await h.admin.get('/clock')).body.now);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(now);
    const deposited = payments.filter((p) => p.date_deposited !== null);
    expect(deposited.length).toBeGreaterThan(0);
    for (const p of payments) {
      expect(p.date_received === null || p.date_received <= today, p.id).toBe(true);
      expect(p.date_deposited === null || p.date_deposited <= today, p.id).toBe(true);
      expect(p.date_deposited === null || p.date_deposited >= p.date_received, p.id).toBe(true);
    }
  });

  test('refunds are negative, of a received payment on the same job, never more than it', async () => {
    const { payments } = await demo(4);
    const byId = new Map(payments.map((p) => [p.id, p]));
    const refunds = payments.filter((p) => p.is_refund);
    expect(refunds.length).toBeGreaterThan(0);
    for (const r of refunds) {
      const original = byId.get(r.refund_of_payment_id);
      expect(r.amount).toBeLessThan(0);
      expect(original?.job_id).toBe(r.job_id);
      expect(original?.is_refund).toBe(false);
      const back = refunds.filter((x) => x.refund_of_payment_id === r.refund_of_payment_id);
      expect(-sumCents(back)).toBeLessThanOrEqual(cents(original?.amount ?? 0));
      expect(Date.parse(r.created_at)).toBeGreaterThanOrEqual(Date.parse(original?.created_at));
    }
  });

  test('estimates agree with the clock and their numbers follow creation order', async () => {
    const { h, estimates, invoices } = await demo(5);
    const now = Date.parse((await h.admin.get('/clock')).body.now);
    for (const e of estimates) {
      if (e.status === 'expired') {
        expect(Date.parse(e.valid_until)).toBeLessThan(now);
      }
      if (['draft', 'sent', 'viewed'].includes(e.status)) {
        expect(Date.parse(e.valid_until)).toBeGreaterThan(now);
      }
      if (e.status === 'signed') {
        expect(e.signed_at).not.toBeNull();
        expect(e.signer_name).not.toBeNull();
      }
      expect(e.total).not.toBe(0);
      expect(e.view_url !== null).toBe(e.sent_at !== null);
    }
    for (const [list, prefix] of [
      [estimates, 'E-'],
      [invoices, 'INV-'],
    ] as const) {
      const numbered = [...list].sort((a, b) => a.created_at.localeCompare(b.created_at));
      const key = prefix === 'E-' ? 'estimate_number' : 'invoice_number';
      expect(numbered.map((r) => r[key])).toEqual(numbered.map((_r, i) => `${prefix}${1001 + i}`));
    }
  });

  test('moving the clock 60 days: seeded invoices out with a balance go overdue, open estimates expire', async () => {
    const { h, ws, invoices } = await demo(6);
    const open = invoices.filter(
      (i) => ['sent', 'viewed', 'partially_paid'].includes(i.status) && i.balance_due > 0,
    );
    expect(open.length).toBeGreaterThan(0);
    await h.admin.post('/clock', { advance_seconds: 60 * 86_400 });
    for (const inv of open) {
      expect((await ws.api.get(`/invoices/${inv.id}`)).body.status).toBe('overdue');
    }
    const after = await all(ws.api, '/estimates');
    expect(after.filter((e) => ['draft', 'sent', 'viewed'].includes(e.status))).toEqual([]);
    expect(after.some((e) => e.status === 'expired')).toBe(true);
  });
});
