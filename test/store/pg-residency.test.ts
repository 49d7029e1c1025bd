import { afterAll, describe, expect, test } from 'vitest';
import { Store } from '../../src/store';
import { type Harness, harness, type Json, type TestWorkspace } from '../support/harness';
import { databaseForFile, pgAvailable } from '../support/pg';

// Issue 39: svc on PostgreSQL reads no workspace at start. Each is loaded by the first request or
// task that needs it; what a start must know of a workspace it has not loaded is in PostgreSQL:
// when its next work falls due (scopes.due), and which workspace holds a record named by its id
// or its portal token alone (records.id, records.name). test/store/residency.test.ts shows each
// rule of loading and letting go alone.

const DAY_S = 24 * 60 * 60;

describe.skipIf(!pgAvailable)('workspaces loaded when first used, on PostgreSQL', () => {
  const db = databaseForFile('residency');
  const open: Harness[] = [];

  /** A svc over `schema`, as `svc serve --store` starts one: no workspace in memory. */
  async function start(schema: string, keep?: number): Promise<Harness> {
    const store = await Store.openPostgres(db.url, schema, keep);
    // Webhooks may go to 127.0.0.1, where nothing listens on port 9: a send fails at once.
    const h = harness({ allowLocalTargets: true }, { store });
    open.push(h);
    return h;
  }

  /** Stops it as a shutdown does: every commit in PostgreSQL first. */
  async function stop(h: Harness): Promise<void> {
    h.rt.scheduler.stop();
    h.rt.deliveries.stop();
    await h.rt.store.close();
    open.splice(open.indexOf(h), 1);
  }

  afterAll(async () => {
    for (const h of open) {
      await h.rt.store.close();
    }
  });

  const again = (h: Harness, ws: TestWorkspace): TestWorkspace => ({
    ...ws,
    api: h.as(ws.keys.write.key),
    read: h.as(ws.keys.read.key),
  });

  /** A workspace with a job and an invoice sent, due tomorrow on its clock. */
  async function withInvoiceDue(h: Harness) {
    const ws = await h.workspace();
    const now = Date.parse((await h.admin.get('/clock')).body.now);
    const due = new Date(now + DAY_S * 1000).toISOString().slice(0, 10);
    const job = await ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' });
    const line = { name: 'Tear-off and reroof', unit_price: 1000, taxable: true };
    const inv = await ws.api.post('/invoices', {
      job_id: job.body.id,
      issue_date: due,
      due_date: due,
      line_items: [line],
    });
    expect(inv.status).toBe(201);
    const sent = await ws.api.post(`/invoices/${inv.body.id}/mark_sent`);
    expect(sent.body.status).toBe('sent');
    return { ws, job: job.body as Json, invoice: sent.body as Json };
  }

  test('a start loads no workspace; a request loads its own alone', async () => {
    const first = await start('firstuse');
    const a = await first.workspace();
    const b = await first.workspace();
    await stop(first);
    const h = await start('firstuse');
    expect([h.rt.store.isAway(a.id), h.rt.store.isAway(b.id)]).toEqual([true, true]);
    const jobs = await again(h, a).api.get('/jobs');
    expect(jobs.status).toBe(200);
    expect([h.rt.store.isAway(a.id), h.rt.store.isAway(b.id)]).toEqual([false, true]);
  });

  test('work due in a workspace no request loaded runs on time: the invoice goes overdue once the clock passes its due date', async () => {
    const first = await start('due');
    const { ws, invoice } = await withInvoiceDue(first);
    await stop(first);
    const h = await start('due');
    expect(h.rt.store.isAway(ws.id)).toBe(true);
    const moved = await h.admin.post('/clock', { advance_seconds: 3 * DAY_S });
    expect(moved.status).toBe(200);
    const after = await again(h, ws).api.get(`/invoices/${invoice.id}`);
    expect(after.body.status).toBe('overdue');
  });

  test("after a restart, a commit to a workspace its request loaded keeps the workspace's next work's time in PostgreSQL", async () => {
    const first = await start('kept');
    const { ws } = await withInvoiceDue(first);
    await stop(first);
    const dueOf = async () =>
      Number(
        (await db.sql.query('SELECT due FROM kept.scopes WHERE scope = $1', [ws.id])).rows[0]?.due,
      );
    const before = await dueOf();
    const h = await start('kept');
    const note = await again(h, ws).api.post('/contacts', {
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    expect(note.status).toBe(201);
    await h.rt.store.sync();
    expect(await dueOf()).toBe(before);
  });

  test('a workspace whose next work is not known (a copy or a seed wrote it) is loaded once after start to learn it', async () => {
    const first = await start('survey');
    const { ws, invoice } = await withInvoiceDue(first);
    await stop(first);
    await db.sql.query('UPDATE survey.scopes SET due = NULL');
    const h = await start('survey');
    await h.rt.store.residency?.surveying;
    const learnt = await db.sql.query('SELECT due FROM survey.scopes WHERE scope = $1', [ws.id]);
    expect(Number(learnt.rows[0]?.due)).toBeGreaterThan(Date.parse(invoice.due_date));
    await h.admin.post('/clock', { advance_seconds: 3 * DAY_S });
    expect((await again(h, ws).api.get(`/invoices/${invoice.id}`)).body.status).toBe('overdue');
  });

  test('the control API and the homeowner page find a record by its id or its token alone, in a workspace not loaded', async () => {
    const first = await start('named');
    const { ws, job } = await withInvoiceDue(first);
    await stop(first);
    const h = await start('named');
    expect(h.rt.store.isAway(ws.id)).toBe(true);
    const portal = await h.app.request(new URL(job.portal_url).pathname);
    expect(portal.status).toBe(200);
    expect(await portal.text()).toContain('1 Main St');

    const h2 = await start('named2');
    const other = await h2.workspace();
    await stop(h2);
    const h3 = await start('named2');
    const revoked = await h3.admin.delete(`/keys/${other.keys.write.id}`);
    expect(revoked.status).toBe(200);
    expect((await again(h3, other).api.get('/jobs')).status).toBe(401);
  });

  test('past its budget a node lets idle workspaces go, and a request loads them back as they were', async () => {
    const h = await start('budget', 0);
    const ws = await h.workspace({ profile: 'small' });
    const listed = await ws.api.get('/jobs', { query: { limit: 5 } });
    await h.rt.store.sync();
    expect(h.rt.store.residency?.trim()).toBe(1);
    expect(h.rt.store.isAway(ws.id)).toBe(true);
    const back = await ws.api.get('/jobs', { query: { limit: 5 } });
    expect(back.body).toEqual(listed.body);
    const one = await ws.api.get(`/jobs/${listed.body.data[0].id}`);
    expect(one.body).toEqual(listed.body.data[0]);
  });

  test('a restore checks its portal links against the workspaces in memory and those holding one, not every workspace', async () => {
    const first = await start('restore');
    const { ws } = await withInvoiceDue(first);
    const other = await first.workspace({ profile: 'small' });
    const snap = (await first.admin.get(`/workspaces/${ws.id}/snapshot`)).body;
    await stop(first);
    const h = await start('restore');
    expect(h.rt.store.isAway(other.id)).toBe(true);
    snap.collections.jobs[0].portal_token = `fresh${Date.now()}token`;
    const restored = await h.admin.raw('PUT', `/workspaces/${ws.id}/snapshot`, {
      body: JSON.stringify(snap),
      headers: { 'content-type': 'application/json' },
      invalid: false,
    });
    expect(restored.status).toBe(200);
    expect(h.rt.store.isAway(other.id)).toBe(true);
  });

  test('a workspace away through its 30 days shows no delivery older than its log keeps, on its first read', async () => {
    const first = await start('sweep');
    const ws = await first.workspace();
    const hook = await ws.api.post('/webhooks', {
      event: 'job.created',
      target_url: 'http://127.0.0.1:9/hook',
    });
    expect(hook.status).toBe(201);
    const sent = await first.admin.post(`/webhooks/${hook.body.id}/test`);
    expect(sent.status).toBe(200);
    const log = `/webhooks/${hook.body.id}/deliveries`;
    expect((await first.admin.get(log)).body.data).toHaveLength(1);
    await stop(first);
    const h = await start('sweep');
    await h.admin.post('/clock', { advance_seconds: 31 * DAY_S });
    expect(h.rt.store.isAway(ws.id)).toBe(true);
    expect((await h.admin.get(log)).body.data).toEqual([]);
  });
});
