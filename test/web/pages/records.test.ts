import { describe, expect, test } from 'vitest';
import { photo, upload } from '../../files/setup';
import { allProperties, built, stormBody } from '../../storm-lists/setup';
import { harness, type Json, type TestWorkspace } from '../../support/harness';
import { expectPageHeaders, linksAnswer, linksOf, page, XSS, XSS_TEXT } from './pages';

// The page every record's `url` opens (contacts, tasks, pins and the map, storm lists, estimates,
// invoices, payments, files): status, what it shows, links that answer, and 404 for an unknown id.

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function all(ws: TestWorkspace, path: string): Promise<Json[]> {
  return (await ws.api.get(path, { query: { limit: 100 } })).body.data;
}

describe('the record pages of a demo workspace', () => {
  const h = harness({ rateLimit: null });
  const demo = h.workspace({ profile: 'demo' });

  test.each([
    ['/contacts', 'full_name'],
    ['/tasks', 'title'],
    ['/pins', 'address'],
    ['/estimates', 'estimate_number'],
    ['/invoices', 'invoice_number'],
    ['/payments', 'id'],
    ['/files', 'name'],
  ])('each of %s opens at its url, shows its %s and its links answer', async (list, field) => {
    const ws = await demo;
    const records = await all(ws, list);
    expect(records.length).toBeGreaterThan(0);
    for (const rec of records.slice(0, 3)) {
      const p = await page(h, rec.url);
      expect(p.status, rec.url).toBe(200);
      expectPageHeaders(p);
      expect(p.main).toContain(`<code>${rec.id}</code>`);
      if (field !== 'id' && rec[field]) {
        expect(p.main).toContain(String(rec[field]).replace(/&/g, '&amp;').replace(/'/g, '&#39;'));
      }
      if (rec.job_id) {
        expect(linksOf(p)).toContain(`/jobs/${rec.job_id}`);
      }
      expect(await linksAnswer(h, p)).toBeGreaterThan(0);
    }
  });

  test('a contact lists the jobs it is on', async () => {
    const ws = await demo;
    const job = (await all(ws, '/jobs')).find((j) => j.homeowner);
    const p = await page(h, `/contacts/${job.homeowner.id}`);
    const jobs = await all(ws, `/contacts/${job.homeowner.id}/jobs`);
    for (const j of jobs) {
      expect(linksOf(p)).toContain(`/jobs/${j.id}`);
    }
  });

  test("a file's page previews an image from its download_url and links to the download", async () => {
    const ws = await demo;
    const photo = (await all(ws, '/files')).find((f) => f.is_photo);
    const p = await page(h, photo.url);
    const src = photo.download_url.replace(/&/g, '&amp;');
    expect(p.main).toContain(`<img class="preview" src="${src}"`);
    expect(p.main).toContain(`href="${src}"`);
    const bytes = await h.request(photo.download_url);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toMatch(/^image\//);
  });

  test("a pin's page and its map_url draw it among nearby pins as an inline SVG with a scale", async () => {
    // Two knocks a few doors apart: the map of one draws the other, whatever the demo drew.
    const ws = await demo;
    const at = { latitude: 32.776664, longitude: -96.796988 };
    const pin = (await ws.api.post('/pins', { ...at, knock_result: 'no_answer' })).body;
    const next = { latitude: at.latitude + 0.0005, longitude: at.longitude };
    expect((await ws.api.post('/pins', { ...next, knock_result: 'door_hanger' })).status).toBe(201);
    for (const url of [pin.url, pin.map_url]) {
      const p = await page(h, url);
      expect(p.status, url).toBe(200);
      expect(p.main).toContain('<svg class="map"');
      expect(p.main).toMatch(/class="scale">[\d.]+ (ft|mi)<\/text>/);
      expect(p.main).not.toMatch(/https?:\/\/(?!localhost|www\.w3\.org)/);
      expect(await linksAnswer(h, p)).toBeGreaterThan(0);
    }
    const map = await page(h, pin.map_url);
    const drawn = [...map.main.matchAll(/<a href="\/pins\/([0-9a-f-]+)"><title>/g)].map(
      (m) => m[1],
    );
    expect(drawn).not.toContain(pin.id);
    expect(drawn.length).toBeGreaterThan(0);
  });

  test.each([
    '/contacts',
    '/tasks',
    '/pins',
    '/storm_lists',
    '/estimates',
    '/invoices',
    '/payments',
    '/files',
  ])('an unknown id under %s is the 404 page', async (base) => {
    const p = await page(h, `${base}/${UNKNOWN}`);
    expect(p.status).toBe(404);
    expectPageHeaders(p);
    expect(p.main).toContain('Not found');
  });

  test('the map without a pin, or with an unknown one, is the 404 page', async () => {
    expect((await page(h, '/map')).status).toBe(404);
    expect((await page(h, `/map?pin=${UNKNOWN}`)).status).toBe(404);
  });
});

describe('the storm list page', () => {
  test('shows the list and its properties a page at a time, newest first as the API pages them', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace();
    const list = await built(h, ws, await stormBody(h, { property_cap: 120 }));
    const props = await allProperties(ws, list.id);
    expect(props.length).toBeGreaterThan(50);
    const first = await page(h, `/storm_lists/${list.id}`);
    expect(first.status).toBe(200);
    expect(first.main).toContain(list.name);
    const rows = (p: { main: string }) =>
      [...p.main.matchAll(/<tr><td>([^<,]*),/g)].map((m) => m[1]);
    expect(rows(first)).toEqual(props.slice(0, 50).map((p: Json) => p.address));
    const next = linksOf(first).find((l) => l.includes('?after='));
    expect(next).toBe(`/storm_lists/${list.id}?after=${props[49].id}`);
    const second = await page(h, next as string);
    expect(rows(second)).toEqual(props.slice(50, 100).map((p: Json) => p.address));
    expect(await linksAnswer(h, second)).toBeGreaterThan(0);
  });

  test('a page cursor that is not a property of the list is the 404 page', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace();
    const list = await built(h, ws, await stormBody(h, { property_cap: 10 }));
    expect((await page(h, `/storm_lists/${list.id}?after=${UNKNOWN}`)).status).toBe(404);
  });
});

describe('records on a deleted job', () => {
  test('say the job is deleted and link to it; the API no longer shows them', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'empty' });
    const job = (await ws.api.post('/jobs', { name: 'Gone Roof', address: '1 Main St' })).body;
    const task = (await ws.api.post('/tasks', { job_id: job.id, title: 'Inspect' })).body;
    const payment = (await ws.api.post('/payments', { job_id: job.id, amount: 100 })).body;
    await ws.api.delete(`/jobs/${job.id}`);
    for (const url of [task.url, payment.url]) {
      const p = await page(h, url);
      expect(p.status, url).toBe(200);
      expect(p.main).toContain(`<a href="/jobs/${job.id}">deleted job</a>`);
      expect(await linksAnswer(h, p)).toBeGreaterThan(0);
    }
    expect((await ws.api.get(`/tasks/${task.id}`)).status).toBe(404);
  });

  test('link nowhere the API hides: no thumbnail, PDF, pay page or download while the job is deleted', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'empty' });
    const job = (await ws.api.post('/jobs', { name: 'Gone Roof', address: '1 Main St' })).body;
    const line = { name: 'Shingles', quantity: 1, unit_price: 100 };
    const estimate = (await ws.api.post('/estimates', { job_id: job.id, scope: [line] })).body;
    const invoice = (await ws.api.post('/invoices', { job_id: job.id, line_items: [line] })).body;
    const file = (
      await upload(
        ws,
        { job_id: job.id },
        { bytes: photo(), type: 'image/jpeg', filename: 'roof.jpg' },
      )
    ).body as Json;
    const before = await page(h, job.url);
    expect(linksOf(before)).toContain(file.download_url);
    await ws.api.delete(`/jobs/${job.id}`);
    for (const url of [job.url, estimate.url, invoice.url, file.url]) {
      const p = await page(h, url);
      expect(p.status, url).toBe(200);
      expect(p.main, url).not.toContain('<img src=');
      expect(
        linksOf(p).some((l) => /\/(pdf|download)|\/pay\//.test(l)),
        url,
      ).toBe(false);
      await linksAnswer(h, p);
    }
    for (const url of [estimate.url, invoice.url, file.url]) {
      expect((await page(h, url)).main, url).toContain('offline while the job is deleted');
    }
  });

  test('a task on no job says the API hides it while its contact is deleted', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'empty' });
    const contact = (await ws.api.post('/contacts', { first_name: 'Ada' })).body;
    const task = (await ws.api.post('/tasks', { contact_id: contact.id, title: 'Call' })).body;
    await ws.api.delete(`/contacts/${contact.id}`);
    expect((await ws.api.get(`/tasks/${task.id}`)).status).toBe(404);
    const p = await page(h, task.url);
    expect(p.main).toContain('the API does not show the task meanwhile');
  });
});

describe('escaping', () => {
  test('what a contact, a task and a pin hold is shown as text', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'empty' });
    const contact = (await ws.api.post('/contacts', { first_name: XSS, notes: XSS })).body;
    const task = (
      await ws.api.post('/tasks', { title: XSS, description: XSS, contact_id: contact.id })
    ).body;
    // A pin placed by its coordinates keeps the street line as sent: the map labels it.
    const pin = (
      await ws.api.post('/pins', { latitude: 32.78, longitude: -96.8, address: XSS, notes: XSS })
    ).body;
    expect(pin.address).toBe(XSS);
    for (const url of [contact.url, task.url, pin.url, pin.map_url]) {
      const p = await page(h, url);
      expect(p.status, url).toBe(200);
      expect(p.html, url).not.toContain(XSS);
      expect(p.main, url).toContain(XSS_TEXT);
    }
  });
});
