// An invoice's payment_url (spec: "homeowner's pay page"; States: mark_sent turns it on; Payment:
// `online`, "paid through the online payment page"): the page records a card payment through the
// payments service, so the invoice, the job's money and the events move as for POST /payments.
import { describe, expect, test } from 'vitest';
import { parseAmount } from '../../../src/resources/payments/pages/pay';
import {
  ESCAPED,
  events,
  expectGuarded,
  expectLinksResolve,
  hiddenFields,
  money,
  ok,
  open,
  path,
  sentInvoice,
  submit,
  UNKNOWN,
  XSS,
} from './setup';

const pay = (id: string) => `/pay/${id}`;

describe('the pay page', () => {
  test('shows the invoice and its balance, the amount defaulting to the balance', async () => {
    const m = await money();
    const inv = await sentInvoice(m, { title: 'Deductible', tax_rate: 10 });
    expect(path(inv.payment_url)).toBe(pay(inv.id));
    const page = await open(m.h, pay(inv.id));
    expect(page.status).toBe(200);
    expectGuarded(page);
    expect(page.html).toContain('Summit Roofing');
    expect(page.html).toContain('Roof replacement');
    expect(page.html).toContain('$1,100.00');
    expect(page.html).toContain('name="amount" inputmode="decimal" required="" value="1100.00"');
    await expectLinksResolve(m.h, page.html);
  });

  test('opening it counts the first view, as POST /__admin/invoices/{id}/view does', async () => {
    const m = await money();
    const inv = await sentInvoice(m);
    await open(m.h, pay(inv.id));
    const after = await ok(m.ws.api.get(`/invoices/${inv.id}`));
    expect(after.status).toBe('viewed');
    expect(after.first_viewed_at).not.toBeNull();
    await open(m.h, pay(inv.id));
    expect((await ok(m.ws.api.get(`/invoices/${inv.id}`))).first_viewed_at).toBe(
      after.first_viewed_at,
    );
  });

  test('paying in full records an online card payment: paid, job balance, payment.received, invoice.paid', async () => {
    const m = await money();
    await ok(m.ws.api.patch(`/jobs/${m.job.id}`, { final_amount: 5000, job_type: 'retail' }));
    const inv = await sentInvoice(m, { purpose: 'deductible' });
    const page = await open(m.h, pay(inv.id));
    const res = await submit(m.h, pay(inv.id), {
      ...hiddenFields(page.html, pay(inv.id)),
      amount: '1,000.00',
      card_name: 'Ada Lovelace',
    });
    expect(res.status).toBe(303);
    const to = res.headers.get('location') ?? '';
    expect(to).toMatch(new RegExp(`^${pay(inv.id)}\\?receipt=`));
    const after = await ok(m.ws.api.get(`/invoices/${inv.id}`));
    expect(after).toMatchObject({
      status: 'paid',
      amount_paid: 1000,
      balance_due: 0,
      payment_url: null,
    });
    const payments = await ok(m.ws.api.get('/payments', { query: { invoice_id: inv.id } }));
    expect(payments.data).toHaveLength(1);
    expect(payments.data[0]).toMatchObject({
      amount: 1000,
      online: true,
      payment_method: 'card',
      payer_type: 'homeowner',
      payment_type: 'deductible',
      status: 'received',
      job_id: m.job.id,
    });
    const job = await ok(m.ws.api.get(`/jobs/${m.job.id}`));
    expect(job).toMatchObject({ amount_received: 1000, balance_due: 4000 });
    // A `*.updated` delivery is held a moment to gather edits (webhookCoalesceMs): move past it.
    await ok(m.h.admin.post('/clock', { advance_seconds: 5 }));
    const fired = await events(m);
    expect(fired).toContain('payment.received');
    expect(fired).toContain('invoice.paid');
    expect(fired).toContain('job.updated');
    const receipt = await open(m.h, to);
    expect(receipt.status).toBe(200);
    expect(receipt.html).toContain('Thank you: your payment of <strong>$1,000.00</strong>');
    expect(receipt.html).toContain('paid in full');
    expect(receipt.html).not.toContain('name="amount"');
  });

  test('a payment through the API is never online (createPayment marks only the page’s)', async () => {
    const m = await money();
    const inv = await sentInvoice(m);
    const p = await ok(
      m.ws.api.post('/payments', {
        job_id: m.job.id,
        invoice_id: inv.id,
        amount: 5,
        payment_method: 'card',
      }),
      201,
    );
    expect(p.online).toBe(false);
  });

  test('a part payment leaves the rest due and the form for it', async () => {
    const m = await money();
    const inv = await sentInvoice(m);
    const fields = hiddenFields((await open(m.h, pay(inv.id))).html, pay(inv.id));
    const res = await submit(m.h, pay(inv.id), { ...fields, amount: '$250', card_name: 'Ada' });
    expect(res.status).toBe(303);
    const after = await ok(m.ws.api.get(`/invoices/${inv.id}`));
    expect(after).toMatchObject({ status: 'partially_paid', amount_paid: 250, balance_due: 750 });
    const again = await open(m.h, res.headers.get('location') ?? '');
    expect(again.html).toContain('value="750.00"');
  });

  test('reposting the same page cannot pay twice: the form is stale, 409 with the new balance', async () => {
    const m = await money();
    const inv = await sentInvoice(m);
    const fields = hiddenFields((await open(m.h, pay(inv.id))).html, pay(inv.id));
    const body = { ...fields, amount: '100', card_name: 'Ada' };
    expect((await submit(m.h, pay(inv.id), body)).status).toBe(303);
    const twice = await submit(m.h, pay(inv.id), body);
    expect(twice.status).toBe(409);
    expect(twice.html).toContain('the balance due is now $900.00');
    const payments = await ok(m.ws.api.get('/payments', { query: { invoice_id: inv.id } }));
    expect(payments.data).toHaveLength(1);
  });

  test.each([
    ['more than the balance', '1000.01', 'more than the balance due ($1,000.00)'],
    ['zero', '0', 'greater than $0.00'],
    ['not a number', 'ten dollars', 'Enter the amount in dollars'],
    ['three decimals', '10.005', 'Enter the amount in dollars'],
  ])('an amount %s is refused, the form shown again and nothing paid', async (_, amount, said) => {
    const m = await money();
    const inv = await sentInvoice(m);
    const fields = hiddenFields((await open(m.h, pay(inv.id))).html, pay(inv.id));
    const res = await submit(m.h, pay(inv.id), { ...fields, amount, card_name: 'Ada' });
    expect(res.status).toBe(400);
    expect(res.html).toContain(said);
    expect(res.html).toContain(`action="${pay(inv.id)}"`);
    expect((await ok(m.ws.api.get(`/invoices/${inv.id}`))).amount_paid).toBe(0);
    expect(await events(m)).not.toContain('payment.received');
  });

  test('without a name on the card nothing is paid', async () => {
    const m = await money();
    const inv = await sentInvoice(m);
    const fields = hiddenFields((await open(m.h, pay(inv.id))).html, pay(inv.id));
    const res = await submit(m.h, pay(inv.id), { ...fields, amount: '10', card_name: ' ' });
    expect(res.status).toBe(400);
    expect(res.html).toContain('Enter the name on the card.');
    expect((await ok(m.ws.api.get(`/invoices/${inv.id}`))).amount_paid).toBe(0);
  });

  test('an invoice that takes no part payments is paid in full or not at all', async () => {
    const m = await money();
    const inv = await sentInvoice(m, { allow_partial_payments: false });
    const page = await open(m.h, pay(inv.id));
    expect(page.html).toContain('readonly=""');
    const res = await submit(m.h, pay(inv.id), {
      ...hiddenFields(page.html, pay(inv.id)),
      amount: '500',
      card_name: 'Ada',
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain('paid in full, in one payment of $1,000.00');
    expect((await ok(m.ws.api.get(`/invoices/${inv.id}`))).amount_paid).toBe(0);
  });

  test('a post without the page token or with a forged one is 403 and pays nothing', async () => {
    const m = await money();
    const inv = await sentInvoice(m);
    const fields = hiddenFields((await open(m.h, pay(inv.id))).html, pay(inv.id));
    const other = await sentInvoice(m);
    const theirs = hiddenFields((await open(m.h, pay(other.id))).html, pay(other.id));
    const tries = [
      { paid_before: '0' },
      { ...fields, page_token: 'garbage' },
      // The token binds the amount paid the page was made with: changing it is a forgery.
      { ...fields, paid_before: '5' },
      theirs,
    ];
    for (const t of tries) {
      const res = await submit(m.h, pay(inv.id), { ...t, amount: '10', card_name: 'Mallory' });
      expect(res.status).toBe(403);
      expectGuarded(res);
    }
    expect((await ok(m.ws.api.get(`/invoices/${inv.id}`))).amount_paid).toBe(0);
    expect(await events(m)).not.toContain('payment.received');
  });

  test.each([
    [
      'a draft',
      'not sent this invoice yet',
      async (id: string, m: Awaited<ReturnType<typeof money>>) => {
        void id;
        void m;
      },
    ],
    [
      'a void invoice',
      'cancelled this invoice',
      async (id: string, m: Awaited<ReturnType<typeof money>>) => {
        await ok(m.ws.api.post(`/invoices/${id}/void`));
      },
    ],
    [
      'a written-off invoice',
      'cannot be paid online',
      async (id: string, m: Awaited<ReturnType<typeof money>>) => {
        await ok(m.h.admin.post(`/invoices/${id}/bad_debt`));
      },
    ],
  ])('%s shows why and offers no form; a post to it pays nothing', async (name, why, make) => {
    const m = await money();
    const draft = await ok(
      m.ws.api.post('/invoices', {
        job_id: m.job.id,
        line_items: [{ name: 'Roof', unit_price: 10 }],
      }),
      201,
    );
    // The form of the page while it was payable, for the post after it no longer is.
    const live = await sentInvoice(m);
    const fields = hiddenFields((await open(m.h, pay(live.id))).html, pay(live.id));
    const id = name === 'a draft' ? draft.id : live.id;
    await make(id, m);
    const page = await open(m.h, pay(id));
    expect(page.status).toBe(200);
    expect(page.html).toContain(why);
    expect(page.html).not.toContain('<form');
    if (id === live.id) {
      const res = await submit(m.h, pay(id), { ...fields, amount: '1', card_name: 'Ada' });
      expect(res.status).toBe(409);
      expect((await ok(m.ws.api.get(`/invoices/${id}`))).amount_paid).toBe(0);
    }
    // Opening a page that is off is no view of the invoice.
    expect((await ok(m.ws.api.get(`/invoices/${draft.id}`))).first_viewed_at).toBeNull();
  });

  test('a draft a payment made partially paid was never sent: no payment_url, and its page says so', async () => {
    const m = await money();
    const draft = await ok(
      m.ws.api.post('/invoices', {
        job_id: m.job.id,
        line_items: [{ name: 'Roof', unit_price: 100 }],
      }),
      201,
    );
    await ok(
      m.ws.api.post('/payments', { job_id: m.job.id, invoice_id: draft.id, amount: 25 }),
      201,
    );
    const after = await ok(m.ws.api.get(`/invoices/${draft.id}`));
    expect(after).toMatchObject({ status: 'partially_paid', sent_at: null, payment_url: null });
    const page = await open(m.h, pay(draft.id));
    expect(page.status).toBe(200);
    expect(page.html).toContain('not sent this invoice yet');
    expect(page.html).not.toContain('<form');
    expect((await ok(m.ws.api.get(`/invoices/${draft.id}`))).first_viewed_at).toBeNull();
    // Sent, it is out: the page turns on.
    const sent = await ok(m.ws.api.post(`/invoices/${draft.id}/mark_sent`));
    expect(path(sent.payment_url)).toBe(pay(draft.id));
  });

  test('an unknown invoice and one on a deleted job are the 404 page', async () => {
    const m = await money();
    expect((await open(m.h, pay(UNKNOWN))).status).toBe(404);
    const inv = await sentInvoice(m);
    await ok(m.ws.api.delete(`/jobs/${m.job.id}`));
    expect((await open(m.h, pay(inv.id))).status).toBe(404);
  });

  test('what the page shows is escaped', async () => {
    const m = await money(undefined, { company: XSS });
    const inv = await sentInvoice(m, { title: XSS, line_items: [{ name: XSS, unit_price: 3 }] });
    const page = await open(m.h, pay(inv.id));
    expect(page.html).toContain(ESCAPED);
    expect(page.html).not.toContain(XSS);
  });
});

describe('amounts as a person types them', () => {
  test.each([
    ['1,250.50', 1250.5],
    ['$80', 80],
    ['.5', 0.5],
    [' 12 ', 12],
    ['1,25', undefined],
    ['-5', undefined],
    ['1e3', undefined],
    ['', undefined],
  ])('%j reads as %j', (text, want) => {
    expect(parseAmount(text)).toBe(want);
  });
});
