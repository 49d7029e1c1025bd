import { describe, expect, test } from 'vitest';
import { harness } from '../../support/harness';
import { expectPageHeaders, linksAnswer, linksOf, page, XSS, XSS_TEXT } from './pages';

// GET {app_url}/workspaces/{id}: the workspace at a glance, every row linking to a page that
// answers.

describe('the workspace page', () => {
  test('shows the boards and the newest records of each kind, every link answering 200', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'demo', name: 'Demo Roofing' });
    const p = await page(h, `/workspaces/${ws.id}`);
    expect(p.status).toBe(200);
    expectPageHeaders(p);
    expect(p.main).toContain('<h1>Demo Roofing</h1>');
    for (const id of [
      'boards',
      'jobs',
      'contacts',
      'tasks',
      'estimates',
      'invoices',
      'payments',
      'pins',
      'storm-lists',
      'trash',
    ]) {
      expect(p.main, id).toContain(`<section id="${id}">`);
    }
    const pipelines = (await ws.api.get('/pipelines')).body.data;
    for (const pipeline of pipelines) {
      expect(p.main).toContain(pipeline.name);
      for (const stage of pipeline.stages) {
        expect(p.main).toContain(stage.label);
      }
    }
    const newest = (await ws.api.get('/jobs', { query: { limit: 1 } })).body.data[0];
    expect(linksOf(p)).toContain(`/jobs/${newest.id}`);
    expect(await linksAnswer(h, p)).toBeGreaterThan(100);
  });

  test('a long list shows the newest 20 with how many the API shows', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'demo' });
    const contacts = [];
    let cursor: string | undefined;
    do {
      const res = await ws.api.get('/contacts', {
        query: { limit: 100, ...(cursor ? { cursor } : {}) },
      });
      contacts.push(...res.body.data);
      cursor = res.body.next_cursor ?? undefined;
    } while (cursor);
    expect(contacts.length).toBeGreaterThan(20);
    const p = await page(h, `/workspaces/${ws.id}`);
    const section = /<section id="contacts">([\s\S]*?)<\/section>/.exec(p.main)?.[1] ?? '';
    expect(section).toContain(`<span class="badge">${contacts.length}</span>`);
    expect(section).toContain(`The newest 20 of ${contacts.length}`);
    expect([...section.matchAll(/href="\/contacts\//g)]).toHaveLength(20);
    expect(section).toContain(`href="/contacts/${contacts[0].id}"`);
  });

  test('a deleted job leaves the lists for Recently deleted, linking to its page', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'empty' });
    const job = (await ws.api.post('/jobs', { name: 'Gone Roof', address: '1 Main St' })).body;
    await ws.api.delete(`/jobs/${job.id}`);
    const p = await page(h, `/workspaces/${ws.id}`);
    const jobs = /<section id="jobs">([\s\S]*?)<\/section>/.exec(p.main)?.[1] ?? '';
    const trash = /<section id="trash">([\s\S]*?)<\/section>/.exec(p.main)?.[1] ?? '';
    expect(jobs).not.toContain(job.id);
    expect(trash).toContain(`href="/jobs/${job.id}"`);
    expect(await linksAnswer(h, p)).toBeGreaterThan(0);
  });

  test('what a record holds is shown as text: a job named with a script tag', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'empty', name: XSS });
    await ws.api.post('/jobs', { name: XSS, address: '1 Main St' });
    const p = await page(h, `/workspaces/${ws.id}`);
    expect(p.html).not.toContain(XSS);
    expect(p.main).toContain(XSS_TEXT);
  });

  test('an unknown workspace is the 404 page', async () => {
    const h = harness({ rateLimit: null });
    const p = await page(h, '/workspaces/00000000-0000-4000-8000-000000000000');
    expect(p.status).toBe(404);
    expectPageHeaders(p);
    expect(p.main).toContain('No workspace here');
  });
});
