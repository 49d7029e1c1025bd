import { describe, expect, test } from 'vitest';
import { type Harness, harness, type Json, type TestWorkspace } from '../../support/harness';
import { expectPageHeaders, linksAnswer, linksOf, page, XSS, XSS_TEXT } from './pages';

// GET {app_url}/jobs/{id}: where a job's `url` (and a note's, at #note-<id>) points.

/** A demo job with the most records on it: the page then has something in every part. */
async function busiestJob(h: Harness, ws: TestWorkspace): Promise<Json> {
  const jobs = (await ws.api.get('/jobs', { query: { limit: 100 } })).body.data as Json[];
  let best = jobs[0];
  let most = -1;
  for (const job of jobs) {
    const counts = await Promise.all(
      ['notes', 'photos', 'estimates', 'invoices', 'payments', 'tasks'].map(
        async (list) => (await ws.api.get(`/jobs/${job.id}/${list}`)).body.data.length,
      ),
    );
    const n = counts.filter((c) => c > 0).length;
    if (n > most) {
      most = n;
      best = job;
    }
  }
  void h;
  return best;
}

describe('the job page', () => {
  test("opens from the job's url and shows its board, people, money, notes, photos, tasks and timeline", async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'demo' });
    const job = await busiestJob(h, ws);
    const p = await page(h, job.url);
    expect(p.status).toBe(200);
    expectPageHeaders(p);
    // The board, the current column marked.
    expect(p.main).toContain(
      `<span class="stage current" aria-current="step">${job.stage_label}</span>`,
    );
    // People: the homeowner links to the contact's page.
    if (job.homeowner) {
      expect(p.main).toContain(`href="/contacts/${job.homeowner.id}"`);
    }
    // Money as the API works it out.
    const usd = (n: number) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);
    expect(p.main).toContain(
      `<div class="money" id="balance-due">${job.balance_due === null ? '—' : usd(job.balance_due)}</div>`,
    );
    for (const list of ['estimates', 'invoices']) {
      for (const rec of (await ws.api.get(`/jobs/${job.id}/${list}`)).body.data) {
        expect(linksOf(p)).toContain(new URL(rec.url).pathname);
      }
    }
    for (const payment of (await ws.api.get(`/jobs/${job.id}/payments`)).body.data) {
      expect(linksOf(p)).toContain(`/payments/${payment.id}`);
    }
    // Notes at their anchors, as a note's url names them.
    for (const note of (await ws.api.get(`/jobs/${job.id}/notes`)).body.data) {
      expect(p.main).toContain(`id="${new URL(note.url).hash.slice(1)}"`);
    }
    // Photo thumbnails load from the file's signed download_url.
    const photos = (await ws.api.get(`/jobs/${job.id}/photos`)).body.data;
    expect(photos.length).toBeGreaterThan(0);
    for (const photo of photos) {
      expect(p.main).toContain(`src="${photo.download_url.replace(/&/g, '&amp;')}"`);
    }
    for (const task of (await ws.api.get(`/jobs/${job.id}/tasks`)).body.data) {
      expect(linksOf(p)).toContain(`/tasks/${task.id}`);
    }
    expect(p.main).toContain(`Job ${job.job_number} created`);
    expect(await linksAnswer(h, p)).toBeGreaterThan(5);
  });

  test('a stage move and a payment show on the timeline, and the balance moves as the API says', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'empty' });
    const job = (
      await ws.api.post('/jobs', {
        name: 'Timeline Roof',
        address: '1 Main St',
        job_type: 'retail',
        estimated_amount: 1000,
      })
    ).body;
    const stages = (await ws.api.get('/pipelines')).body.data[0].stages;
    const to = stages[2];
    await ws.api.patch(`/jobs/${job.id}`, { stage: to.key });
    await ws.api.post('/payments', { job_id: job.id, amount: 250, status: 'received' });
    const after = (await ws.api.get(`/jobs/${job.id}`)).body;
    const p = await page(h, `/jobs/${job.id}`);
    expect(p.main).toContain(`Stage moved from ${stages[0].label} to ${to.label}`);
    expect(p.main).toContain('Payment of $250.00 recorded (received)');
    expect(p.main).toContain(
      `<div class="money" id="balance-due">$${after.balance_due.toFixed(2)}</div>`,
    );
    expect(after.balance_due).toBe(750);
  });

  test('what a job holds is shown as text: a name with a script tag', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'empty' });
    const job = (await ws.api.post('/jobs', { name: XSS, address: XSS })).body;
    await ws.api.post('/notes', { job_id: job.id, content: XSS });
    const p = await page(h, `/jobs/${job.id}`);
    expect(p.status).toBe(200);
    expect(p.html).not.toContain(XSS);
    expect(p.html).toContain(`<title>${job.job_number} ${XSS_TEXT} · svc</title>`);
    expect(p.main).toContain(`<p>${XSS_TEXT}</p>`);
  });

  test('an unknown job, or an id that is not one, is the 404 page', async () => {
    const h = harness({ rateLimit: null });
    await h.workspace({ profile: 'small' });
    for (const path of ['/jobs/00000000-0000-4000-8000-000000000000', '/jobs/nope']) {
      const p = await page(h, path);
      expect(p.status, path).toBe(404);
      expect(p.main).toContain('No job here');
    }
  });
});
