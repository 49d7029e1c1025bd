import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Store } from '../../src/store';
import { expectError, ok } from '../support/expect';
import { harness } from '../support/harness';
import { eventCount, put, snapshotOf } from './setup';

describe('GET and POST /__admin/snapshot', () => {
  test('importing an export puts the whole store back: a workspace made since is gone', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace();
    const kept = await ok(ws.api.post('/contacts', { first_name: 'Kept' }), 201);
    const snap = await ok(h.admin.get('/snapshot'));
    expect(snap).toMatchObject({ format: 'svc-data', version: 1 });
    const later = await h.workspace();
    await ok(ws.api.delete(`/contacts/${kept.id}`));
    const done = await ok(h.admin.post('/snapshot', snap));
    expect(done).toMatchObject({ object: 'store_import', workspaces: 1 });
    expect(await ok(ws.api.get(`/contacts/${kept.id}`))).toEqual(kept);
    expectError(await h.admin.get(`/workspaces/${later.id}`), 404, 'not_found');
    expectError(await later.api.get('/ping'), 401, 'unauthorized');
  });

  test("another server's export brings its workspaces and keys here", async () => {
    const a = harness({ rateLimit: null });
    const ws = await a.workspace({ profile: 'small', seed: 5 });
    const jobs = (await ws.api.get('/jobs')).body;
    const b = harness({ rateLimit: null });
    await b.workspace();
    await ok(b.admin.post('/snapshot', await ok(a.admin.get('/snapshot'))));
    const listed = (await b.admin.get('/workspaces')).body.data;
    expect(listed.map((w: { id: string }) => w.id)).toEqual([ws.id]);
    expect((await b.as(ws.keys.write.key).get('/jobs')).body).toEqual(jobs);
  });

  test('an import raises no events', async () => {
    const h = harness({ rateLimit: null, allowLocalTargets: true, webhookCoalesceMs: 0 });
    const ws = await h.workspace();
    await ok(ws.api.post('/webhooks', { target_url: 'http://127.0.0.1:9/hook', event: '*' }), 201);
    const snap = await ok(h.admin.get('/snapshot'));
    const events = await eventCount(h, ws.id);
    await ok(ws.api.post('/contacts', { first_name: 'Heard' }), 201);
    await ok(h.admin.post('/snapshot', snap));
    expect(await eventCount(h, ws.id)).toBe(events);
  });

  test('the clock moves forward to the snapshot’s, and never back', async () => {
    const a = harness({ rateLimit: null });
    await a.workspace();
    const ahead = await ok(a.admin.post('/clock', { advance_seconds: 10 * 86400 }));
    const snap = await ok(a.admin.get('/snapshot'));
    const b = harness({ rateLimit: null });
    const imported = await ok(b.admin.post('/snapshot', snap));
    expect(Date.parse(imported.now)).toBeGreaterThanOrEqual(Date.parse(ahead.now));
    const further = await ok(b.admin.post('/clock', { advance_seconds: 30 * 86400 }));
    const again = await ok(b.admin.post('/snapshot', snap));
    expect(Date.parse(again.now)).toBeGreaterThanOrEqual(Date.parse(further.now));
  });

  test('a body that is not a store snapshot is 400 naming the field, and nothing changes', async () => {
    const h = harness();
    const ws = await h.workspace();
    const snap = await ok(h.admin.get('/snapshot'));
    const seq = h.rt.store.seq;
    expectError(
      await h.admin.post('/snapshot', { ...snap, format: 'x' }, { invalid: true }),
      400,
      'invalid_request',
      'format',
    );
    expectError(
      await h.admin.post('/snapshot', { ...snap, version: 2 }, { invalid: true }),
      400,
      'invalid_request',
      'version',
    );
    const misfiled = structuredClone(snap);
    const userId = Object.keys(misfiled.workspaces[ws.id].users)[0] as string;
    misfiled.workspaces[ws.id].users[userId].id = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';
    expectError(
      await h.admin.post('/snapshot', misfiled),
      400,
      'invalid_request',
      `workspaces.${ws.id}.users.${userId}.id`,
    );
    const orphan = structuredClone(snap);
    delete orphan.global.workspaces[ws.id];
    expectError(
      await h.admin.post('/snapshot', orphan),
      400,
      'invalid_request',
      `workspaces.${ws.id}`,
    );
    expect(h.rt.store.seq).toBe(seq);
    expect((await ws.api.get('/ping')).status).toBe(200);
  });
});

describe('snapshots on a data file', () => {
  test('a restored workspace is what the data file holds after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-snap-'));
    try {
      const first = await Store.open(join(dir, 'data.json'));
      const h1 = harness({ rateLimit: null }, { store: first.store });
      const ws = await h1.workspace();
      const snap = await snapshotOf(h1, ws.id);
      const since = await ok(ws.api.post('/contacts', { first_name: 'Since' }), 201);
      await ok(put(h1, `/workspaces/${ws.id}/snapshot`, snap));
      await first.store.close();
      const second = await Store.open(join(dir, 'data.json'));
      const h2 = harness({ rateLimit: null }, { store: second.store });
      expectError(await h2.as(ws.keys.write.key).get(`/contacts/${since.id}`), 404, 'not_found');
      expect(await snapshotOf(h2, ws.id)).toMatchObject({ collections: snap.collections });
      await second.store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
