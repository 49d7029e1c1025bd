import { describe, expect, test } from 'vitest';
import {
  expectError,
  fresh,
  get,
  idsOf,
  invoiceOf,
  markSent,
  newContact,
  newInvoice,
  newJob,
  ok,
  UNKNOWN,
  voidIt,
} from './setup';

// GET /invoices and GET /jobs/{id}/invoices: spec, Invoices (filters status, job_id, contact_id,
// invoice_number), Pagination; decisions.md, Lists and Invoices (an invoice billed to a contact
// alone is seen while the contact is; one on a job, while the job is).

describe('GET /invoices', () => {
  test('lists the workspace invoices newest first, as GET of each returns it', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const contact = await newContact(ws);
    const a = await newInvoice(ws, { job_id: job.id });
    const b = await newInvoice(ws, { contact_id: contact.id });
    const c = await newInvoice(ws, { job_id: job.id, purpose: 'deductible' });
    const theirs = await h.workspace();
    await newInvoice(theirs, { job_id: (await newJob(theirs)).id });
    const list = await get(ws.api, '/invoices');
    expect(list).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(idsOf(list)).toEqual([c.id, b.id, a.id]);
    expect(list.data).toEqual([await invoiceOf(ws, c.id), await invoiceOf(ws, b.id), a]);
  });

  test('status filters; an unknown status is 400 field status', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const draft = await newInvoice(ws, { job_id: job.id });
    const sent = await newInvoice(ws, { job_id: job.id });
    await markSent(ws, sent.id);
    const voided = await newInvoice(ws, { job_id: job.id });
    await voidIt(ws, voided.id);
    const by = async (status: string) => idsOf(await get(ws.api, '/invoices', { status }));
    expect(await by('draft')).toEqual([draft.id]);
    expect(await by('sent')).toEqual([sent.id]);
    expect(await by('void')).toEqual([voided.id]);
    expect(await by('paid')).toEqual([]);
    const bad = await ws.api.get('/invoices', { query: { status: 'open' }, invalid: true });
    expectError(bad, 400, 'invalid_request', 'status');
  });

  test('job_id filters; a job_id that is no uuid is 400 field job_id', async () => {
    const { ws } = await fresh();
    const one = await newJob(ws);
    const two = await newJob(ws, { name: 'Two' });
    const a = await newInvoice(ws, { job_id: one.id });
    const b = await newInvoice(ws, { job_id: two.id });
    const c = await newInvoice(ws, { job_id: one.id });
    expect(idsOf(await get(ws.api, '/invoices', { job_id: one.id }))).toEqual([c.id, a.id]);
    expect(idsOf(await get(ws.api, '/invoices', { job_id: two.id.toUpperCase() }))).toEqual([b.id]);
    expect(idsOf(await get(ws.api, '/invoices', { job_id: UNKNOWN }))).toEqual([]);
    const bad = await ws.api.get('/invoices', { query: { job_id: 'J-1001' }, invalid: true });
    expectError(bad, 400, 'invalid_request', 'job_id');
  });

  test('contact_id filters on the contact billed, on a job or alone', async () => {
    const { ws } = await fresh();
    const owner = await newContact(ws, { name: 'Hal Owner' });
    const other = await newContact(ws, { name: 'Pat Payer' });
    const job = await newJob(ws, { homeowner_id: owner.id });
    const onJob = await newInvoice(ws, { job_id: job.id });
    const alone = await newInvoice(ws, { contact_id: owner.id });
    const theirs = await newInvoice(ws, { job_id: job.id, contact_id: other.id });
    expect(idsOf(await get(ws.api, '/invoices', { contact_id: owner.id }))).toEqual([
      alone.id,
      onJob.id,
    ]);
    expect(idsOf(await get(ws.api, '/invoices', { contact_id: other.id }))).toEqual([theirs.id]);
  });

  test('invoice_number finds the one invoice, in any case; an unknown number none', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    await newInvoice(ws, { job_id: job.id });
    const second = await newInvoice(ws, { job_id: job.id });
    await newInvoice(ws, { job_id: job.id });
    expect(idsOf(await get(ws.api, '/invoices', { invoice_number: 'INV-1002' }))).toEqual([
      second.id,
    ]);
    expect(idsOf(await get(ws.api, '/invoices', { invoice_number: 'inv-1002' }))).toEqual([
      second.id,
    ]);
    expect(idsOf(await get(ws.api, '/invoices', { invoice_number: 'INV-100' }))).toEqual([]);
    expect(idsOf(await get(ws.api, '/invoices', { invoice_number: 'INV-9999' }))).toEqual([]);
  });

  // decisions.md, Invoices: a blank number filters nothing, as a blank job_number search does.
  test('a blank invoice_number filters nothing', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const first = await newInvoice(ws, { job_id: job.id });
    const second = await newInvoice(ws, { job_id: job.id });
    expect(idsOf(await get(ws.api, '/invoices', { invoice_number: '' }))).toEqual([
      second.id,
      first.id,
    ]);
  });

  test('filters combine', async () => {
    const { ws } = await fresh();
    const one = await newJob(ws);
    const two = await newJob(ws, { name: 'Two' });
    const a = await newInvoice(ws, { job_id: one.id });
    await markSent(ws, a.id);
    await newInvoice(ws, { job_id: one.id });
    const c = await newInvoice(ws, { job_id: two.id });
    await markSent(ws, c.id);
    expect(idsOf(await get(ws.api, '/invoices', { job_id: one.id, status: 'sent' }))).toEqual([
      a.id,
    ]);
  });

  test('pages with limit and cursor, none skipped or repeated', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.unshift((await newInvoice(ws, { job_id: job.id })).id);
      // A second apart: two made in one millisecond order by id, the keyset's tie-break.
      await h.admin.post('/clock', { advance_seconds: 1 });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string | number> = { limit: 2 };
      if (cursor !== null) {
        query.cursor = cursor;
      }
      const page = await ok(ws.api.get('/invoices', { query }));
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...idsOf(page));
      cursor = page.next_cursor;
      expect(page.has_more).toBe(cursor !== null);
    } while (cursor !== null);
    expect(seen).toEqual(made);
  });

  test('a read-only key lists and reads', async () => {
    const { ws } = await fresh();
    const inv = await newInvoice(ws, { job_id: (await newJob(ws)).id });
    expect(idsOf(await get(ws.read, '/invoices'))).toEqual([inv.id]);
    expect(await get(ws.read, `/invoices/${inv.id}`)).toEqual(inv);
  });

  test("another workspace's invoice is 404 here", async () => {
    const { h, ws } = await fresh();
    const theirs = await h.workspace();
    const inv = await newInvoice(theirs, { job_id: (await newJob(theirs)).id });
    expectError(await ws.api.get(`/invoices/${inv.id}`), 404, 'not_found');
    expectError(await ws.api.get(`/invoices/${UNKNOWN}`), 404, 'not_found');
  });
});

describe('GET /jobs/{id}/invoices', () => {
  test("lists the job's invoices only, newest first", async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const other = await newJob(ws, { name: 'Other' });
    const a = await newInvoice(ws, { job_id: job.id });
    await newInvoice(ws, { job_id: other.id });
    const c = await newInvoice(ws, { job_id: job.id });
    const list = await get(ws.api, `/jobs/${job.id}/invoices`);
    expect(list).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(list.data).toEqual([await invoiceOf(ws, c.id), await invoiceOf(ws, a.id)]);
  });

  test('an unknown job is 404', async () => {
    const { ws } = await fresh();
    expectError(await ws.api.get(`/jobs/${UNKNOWN}/invoices`), 404, 'not_found');
  });
});

describe('what the API sees', () => {
  test('an invoice billed to a contact alone is hidden while the contact is deleted', async () => {
    const { h, ws } = await fresh();
    const contact = await newContact(ws);
    const inv = await newInvoice(ws, { contact_id: contact.id });
    await ok(ws.api.delete(`/contacts/${contact.id}`));
    expectError(await ws.api.get(`/invoices/${inv.id}`), 404, 'not_found');
    expect(idsOf(await get(ws.api, '/invoices'))).toEqual([]);
    expect(idsOf(await get(ws.api, '/invoices', { contact_id: contact.id }))).toEqual([]);
    expectError(await ws.api.post(`/invoices/${inv.id}/mark_sent`), 404, 'not_found');
    await ok(h.admin.post(`/contacts/${contact.id}/restore`));
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
    expect(idsOf(await get(ws.api, '/invoices'))).toEqual([inv.id]);
  });

  test('an invoice on a job stays when its contact is deleted', async () => {
    const { ws } = await fresh();
    const contact = await newContact(ws);
    const job = await newJob(ws, { homeowner_id: contact.id });
    const inv = await newInvoice(ws, { job_id: job.id });
    await ok(ws.api.delete(`/contacts/${contact.id}`));
    expect((await invoiceOf(ws, inv.id)).id).toBe(inv.id);
    expect(idsOf(await get(ws.api, '/invoices'))).toEqual([inv.id]);
  });

  test("a deleted job's invoices are gone with it, and back when it is restored", async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id });
    await ok(ws.api.delete(`/jobs/${job.id}`));
    expectError(await ws.api.get(`/invoices/${inv.id}`), 404, 'not_found');
    expect(idsOf(await get(ws.api, '/invoices'))).toEqual([]);
    await ok(h.admin.post(`/jobs/${job.id}/restore`));
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
  });

  test("a job's homeowner who is deleted is not billed by default", async () => {
    const { ws } = await fresh();
    const contact = await newContact(ws);
    const job = await newJob(ws, { homeowner_id: contact.id });
    await ok(ws.api.delete(`/contacts/${contact.id}`));
    // The job shows no homeowner while the contact is deleted; the invoice bills none either.
    expect((await get(ws.api, `/jobs/${job.id}`)).homeowner_id).toBeNull();
    expect((await newInvoice(ws, { job_id: job.id })).contact_id).toBeNull();
  });
});
