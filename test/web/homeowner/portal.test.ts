// A job's portal_url (spec, Job: "the homeowner's job page"): where the job stands, what is
// booked, what was sent to the homeowner; nothing internal.
import { describe, expect, test } from 'vitest';
import {
  ESCAPED,
  estimate,
  expectGuarded,
  expectLinksResolve,
  money,
  ok,
  open,
  path,
  sentEstimate,
  sentInvoice,
  XSS,
} from './setup';

/** A wall-clock time (YYYY-MM-DDTHH:MM:SS) `days` from the virtual clock's now. */
async function wallIn(m: Awaited<ReturnType<typeof money>>, days: number): Promise<string> {
  const now = Date.parse((await ok(m.h.admin.get('/clock'))).now);
  return new Date(now + days * 86_400_000).toISOString().slice(0, 11).concat('10:00:00');
}

describe('the homeowner portal', () => {
  test('shows the company, the address and the stage in words', async () => {
    const m = await money();
    const page = await open(m.h, path(m.job.portal_url));
    expect(page.status).toBe(200);
    expectGuarded(page);
    expect(page.html).toContain('Summit Roofing');
    expect(page.html).toContain('Hello, Ada');
    expect(page.html).toContain('12 Elm St, Tulsa, OK 74103');
    expect(page.html).toContain(`<strong>${m.job.stage_label}</strong>`);
    expect(page.html).toContain(`<li class="stage current">${m.job.stage_label}</li>`);
  });

  test('a stage change shows at once', async () => {
    const m = await money();
    const board = await ok(m.ws.api.get('/pipelines'));
    const stages = board.data[0].stages;
    const later = stages.find(
      (s: { is_completed: boolean; is_lost: boolean; key: string }) =>
        !s.is_lost && s.key !== m.job.stage && !s.is_completed,
    );
    await ok(m.ws.api.patch(`/jobs/${m.job.id}`, { stage: later.key }));
    const page = await open(m.h, path(m.job.portal_url));
    expect(page.html).toContain(`<li class="stage current">${later.label}</li>`);
  });

  test('lists appointments coming, not past, completed or plain tasks', async () => {
    const m = await money();
    const task = (body: Record<string, unknown>) =>
      ok(m.ws.api.post('/tasks', { job_id: m.job.id, ...body }), 201);
    await task({ title: 'Inspect', appointment_type: 'inspection', due_date: await wallIn(m, 3) });
    await task({ title: 'Old', appointment_type: 'build_day', due_date: await wallIn(m, -3) });
    const done = await task({
      title: 'Met',
      appointment_type: 'adjuster_meeting',
      due_date: await wallIn(m, 4),
    });
    await ok(m.ws.api.patch(`/tasks/${done.id}`, { completed: true }));
    await task({ title: 'Order shingles internally', due_date: await wallIn(m, 2) });
    const page = await open(m.h, path(m.job.portal_url));
    expect(page.html).toContain('Roof inspection');
    expect(page.html).not.toContain('Build day');
    expect(page.html).not.toContain('adjuster');
    expect(page.html).not.toContain('Order shingles internally');
  });

  test('lists what was sent to the homeowner with their links, not drafts', async () => {
    const m = await money();
    const sent = await sentEstimate(m, {
      line_items: [{ name: 'Roof', unit_price: 4200 }],
      title: 'New roof',
    });
    await estimate(m, { line_items: [{ name: 'Secret', unit_price: 1 }], title: 'Draft idea' });
    const inv = await sentInvoice(m, { title: 'Deductible' });
    await ok(
      m.ws.api.post('/invoices', {
        job_id: m.job.id,
        title: 'Unsent bill',
        line_items: [{ name: 'x', unit_price: 1 }],
      }),
      201,
    );
    const page = await open(m.h, path(m.job.portal_url));
    expect(page.html).toContain('New roof');
    expect(page.html).toContain(`href="${path(sent.view_url)}"`);
    expect(page.html).toContain('$4,200.00');
    expect(page.html).toContain('Deductible');
    expect(page.html).toContain(`href="${path(inv.payment_url)}"`);
    expect(page.html).not.toContain('Draft idea');
    expect(page.html).not.toContain('Unsent bill');
    await expectLinksResolve(m.h, page.html);
  });

  test('shows nothing internal: no notes, no other customer’s invoice', async () => {
    const m = await money();
    await ok(
      m.ws.api.post('/notes', { job_id: m.job.id, content: 'Owner is difficult; upsell gutters' }),
      201,
    );
    const bank = await ok(
      m.ws.api.post('/contacts', {
        first_name: 'Mortgage',
        last_name: 'Bank',
        type: 'mortgage_company',
      }),
      201,
    );
    await sentInvoice(m, { contact_id: bank.id, title: 'Bank draw' });
    const page = await open(m.h, path(m.job.portal_url));
    expect(page.html).not.toContain('upsell');
    expect(page.html).not.toContain('Bank draw');
    expect(page.html).not.toContain('Mortgage');
  });

  test('an unknown token and a deleted job are the 404 page', async () => {
    const m = await money();
    expect((await open(m.h, '/portal/nosuchtoken0000000000000')).status).toBe(404);
    expect((await open(m.h, '/portal/nosuchtoken0000000000000')).status).toBe(404);
    await ok(m.ws.api.delete(`/jobs/${m.job.id}`));
    expect((await open(m.h, path(m.job.portal_url))).status).toBe(404);
    await ok(m.h.admin.post(`/jobs/${m.job.id}/restore`));
    expect((await open(m.h, path(m.job.portal_url))).status).toBe(200);
  });

  test('a job made after the page was first asked for is found by its token', async () => {
    const m = await money();
    expect((await open(m.h, path(m.job.portal_url))).status).toBe(200);
    const later = await ok(m.ws.api.post('/jobs', { name: 'Second', address: '9 Oak Ave' }), 201);
    const page = await open(m.h, path(later.portal_url));
    expect(page.status).toBe(200);
    expect(page.html).toContain('9 Oak Ave');
  });

  test('what the page shows is escaped', async () => {
    const m = await money(undefined, { company: XSS });
    await ok(m.ws.api.patch(`/jobs/${m.job.id}`, { address: XSS }));
    const page = await open(m.h, path(m.job.portal_url));
    expect(page.html).toContain(ESCAPED);
    expect(page.html).not.toContain(XSS);
  });
});
