import { describe, expect, test } from 'vitest';
import { advance, newJob, ok, setup, subscribe } from '../../webhooks/setup';
import { expectPageHeaders, linksAnswer, page, post, tokenOf } from './pages';

// A deleted job's or contact's page says so, with the day it is purged, and offers Restore: a
// form with a per-page token posting to the same restore service as POST
// /__admin/{jobs,contacts}/{id}/restore, so the same `*.created` event fires.

const DAY = 24 * 60 * 60;

describe('a deleted job', () => {
  test('its page says it is deleted and when it is purged, and offers Restore', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    await ok(c.ws.api.delete(`/jobs/${job.id}`));
    const deletedAt = (await ok(c.h.admin.get('/clock'))).now as string;
    const p = await page(c.h, `/jobs/${job.id}`);
    expect(p.status).toBe(200);
    expectPageHeaders(p);
    expect(p.main).toContain('This job was deleted on');
    const purge = new Date(Date.parse(deletedAt) + 30 * DAY * 1000).toISOString();
    expect(p.main).toContain(`purged for good on ${purge.slice(0, 10)}`);
    expect(tokenOf(p, `/jobs/${job.id}/restore`)).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(await linksAnswer(c.h, p)).toBeGreaterThan(0);
  });

  test('Restore brings it back through the restore service: 303 to its page, job.created delivered', async () => {
    const c = await setup();
    await subscribe(c, 'job.created');
    const job = await newJob(c.ws);
    await advance(c.h, 0);
    await ok(c.ws.api.delete(`/jobs/${job.id}`));
    const p = await page(c.h, `/jobs/${job.id}`);
    const res = await post(c.h, `/jobs/${job.id}/restore`, {
      token: tokenOf(p, `/jobs/${job.id}/restore`),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/jobs/${job.id}?restored=1`);
    expect((await c.ws.api.get(`/jobs/${job.id}`)).status).toBe(200);
    await advance(c.h, 0);
    const created = c.rx.received.filter((r) => r.json.event_type === 'job.created');
    expect(created.map((r) => r.json.id)).toEqual([job.id, job.id]);
    const back = await page(c.h, `/jobs/${job.id}?restored=1`);
    expect(back.main).toContain('Restored');
    expect(back.main).not.toContain('This job was deleted');
  });

  test("a post without a token, with a wrong one, or with another page's is 403 and changes nothing", async () => {
    const c = await setup();
    await subscribe(c, 'job.created');
    const job = await newJob(c.ws);
    const other = await newJob(c.ws, { name: 'Other' });
    await ok(c.ws.api.delete(`/jobs/${job.id}`));
    await ok(c.ws.api.delete(`/jobs/${other.id}`));
    const otherToken = tokenOf(await page(c.h, `/jobs/${other.id}`), `/jobs/${other.id}/restore`);
    const mine = tokenOf(await page(c.h, `/jobs/${job.id}`), `/jobs/${job.id}/restore`);
    await advance(c.h, 0);
    const before = c.rx.received.length;
    const forms: Record<string, string>[] = [
      {},
      { token: 'nope' },
      { token: otherToken },
      { token: `${mine}x` },
    ];
    for (const form of forms) {
      const res = await post(c.h, `/jobs/${job.id}/restore`, form);
      expect(res.status, JSON.stringify(form)).toBe(403);
      expect(await res.text()).toContain('Nothing was changed');
    }
    // A contact's restore does not take a job's token either.
    expect((await post(c.h, `/contacts/${job.id}/restore`, { token: mine })).status).toBe(403);
    expect((await c.ws.api.get(`/jobs/${job.id}`)).status).toBe(404);
    await advance(c.h, 0);
    expect(c.rx.received.length).toBe(before);
  });

  test('a token expires: a page left open past its 30 minutes cannot restore', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    await ok(c.ws.api.delete(`/jobs/${job.id}`));
    const token = tokenOf(await page(c.h, `/jobs/${job.id}`), `/jobs/${job.id}/restore`);
    await advance(c.h, 31 * 60);
    expect((await post(c.h, `/jobs/${job.id}/restore`, { token })).status).toBe(403);
    expect((await c.ws.api.get(`/jobs/${job.id}`)).status).toBe(404);
  });

  test('past its 30 days it is purged: the page is 404 and offers nothing', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    await ok(c.ws.api.delete(`/jobs/${job.id}`));
    await advance(c.h, 30 * DAY + 1);
    expect((await page(c.h, `/jobs/${job.id}`)).status).toBe(404);
  });
});

describe('a deleted contact', () => {
  test('its page offers Restore, which brings it back and delivers contact.created', async () => {
    const c = await setup();
    await subscribe(c, 'contact.created');
    const contact = await ok(c.ws.api.post('/contacts', { first_name: 'Ada' }), 201);
    await ok(c.ws.api.delete(`/contacts/${contact.id}`));
    const p = await page(c.h, `/contacts/${contact.id}`);
    expect(p.main).toContain('This contact was deleted on');
    const res = await post(c.h, `/contacts/${contact.id}/restore`, {
      token: tokenOf(p, `/contacts/${contact.id}/restore`),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/contacts/${contact.id}?restored=1`);
    expect((await c.ws.api.get(`/contacts/${contact.id}`)).status).toBe(200);
    await advance(c.h, 0);
    const created = c.rx.received.filter((r) => r.json.event_type === 'contact.created');
    expect(created.map((r) => r.json.id)).toEqual([contact.id, contact.id]);
  });

  test('a live contact has no Restore form', async () => {
    const c = await setup();
    const contact = await ok(c.ws.api.post('/contacts', { first_name: 'Ada' }), 201);
    const p = await page(c.h, `/contacts/${contact.id}`);
    expect(p.main).not.toContain('<form');
  });
});
