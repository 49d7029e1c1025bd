import { describe, expect, test } from 'vitest';
import { expectError, ok } from '../support/expect';
import { harness } from '../support/harness';
import { eventCount, put, snapshotOf } from './setup';

const UNKNOWN = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';

describe('GET /__admin/workspaces/{id}/snapshot', () => {
  test('holds the records, the keys as hashes, and never a key itself', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'small', seed: 7 });
    const snap = await snapshotOf(h, ws.id);
    expect(snap).toMatchObject({ format: 'svc-workspace-snapshot', version: 1 });
    expect(snap.workspace.id).toBe(ws.id);
    expect(snap.collections.contacts.length).toBeGreaterThan(0);
    expect(snap.keys.map((k: { id: string }) => k.id).sort()).toEqual(
      [ws.keys.write.id, ws.keys.read.id].sort(),
    );
    expect(snap.keys[0].hash).toMatch(/^[0-9a-f]{64}$/);
    const text = JSON.stringify(snap);
    expect(text).not.toContain(ws.keys.write.key);
    expect(text).not.toContain(ws.keys.read.key);
  });

  test('an unknown workspace is 404 not_found', async () => {
    const h = harness();
    expectError(await h.admin.get(`/workspaces/${UNKNOWN}/snapshot`), 404, 'not_found');
  });
});

describe('PUT /__admin/workspaces/{id}/snapshot', () => {
  test('puts the records back as they were: made since is gone, deleted since is back', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace();
    const kept = await ok(ws.api.post('/contacts', { first_name: 'Kept' }), 201);
    const snap = await snapshotOf(h, ws.id);
    const since = await ok(ws.api.post('/contacts', { first_name: 'Since' }), 201);
    await ok(ws.api.patch(`/contacts/${kept.id}`, { last_name: 'Changed' }));
    await ok(ws.api.delete(`/contacts/${kept.id}`));
    const restored = await put(h, `/workspaces/${ws.id}/snapshot`, snap);
    expect(restored.status).toBe(200);
    expect(restored.body.id).toBe(ws.id);
    expectError(await ws.api.get(`/contacts/${since.id}`), 404, 'not_found');
    const back = await ok(ws.api.get(`/contacts/${kept.id}`));
    expect(back).toEqual(kept);
  });

  test('the same keys keep working; a key made since the snapshot no longer does', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace();
    const snap = await snapshotOf(h, ws.id);
    const later = await ok(h.admin.post(`/workspaces/${ws.id}/keys`, { access: 'write' }), 201);
    await ok(h.as(later.key).get('/ping'));
    await ok(put(h, `/workspaces/${ws.id}/snapshot`, snap));
    expect((await ws.api.get('/ping')).status).toBe(200);
    expect((await ws.read.get('/ping')).status).toBe(200);
    expectError(await h.as(later.key).get('/ping'), 401, 'unauthorized');
  });

  test('a key revoked since the snapshot works again once restored', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace();
    const snap = await snapshotOf(h, ws.id);
    await ok(h.admin.delete(`/keys/${ws.keys.write.id}`));
    expectError(await ws.api.get('/ping'), 401, 'unauthorized');
    await ok(put(h, `/workspaces/${ws.id}/snapshot`, snap));
    expect((await ws.api.get('/ping')).status).toBe(200);
  });

  test('a restore raises no events, though subscriptions hear every change', async () => {
    const h = harness({ rateLimit: null, allowLocalTargets: true, webhookCoalesceMs: 0 });
    const ws = await h.workspace();
    await ok(ws.api.post('/webhooks', { target_url: 'http://127.0.0.1:9/hook', event: '*' }), 201);
    const snap = await snapshotOf(h, ws.id);
    await ok(ws.api.post('/contacts', { first_name: 'Heard' }), 201);
    const before = await eventCount(h, ws.id);
    expect(before).toBeGreaterThan(snap.collections.webhook_events?.length ?? 0);
    await ok(put(h, `/workspaces/${ws.id}/snapshot`, snap));
    expect(await eventCount(h, ws.id)).toBe(snap.collections.webhook_events?.length ?? 0);
  });

  test('an Idempotency-Key first used after the snapshot runs afresh once restored', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace();
    const snap = await snapshotOf(h, ws.id);
    const headers = { 'Idempotency-Key': 'snap-1' };
    const first = await ok(ws.api.post('/contacts', { first_name: 'Once' }, { headers }), 201);
    await ok(put(h, `/workspaces/${ws.id}/snapshot`, snap));
    const again = await ws.api.post('/contacts', { first_name: 'Once' }, { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.id).not.toBe(first.id);
  });

  test('a workspace restored from a snapshot of another is refused, field workspace.id', async () => {
    const h = harness();
    const a = await h.workspace();
    const b = await h.workspace();
    const snap = await snapshotOf(h, a.id);
    expectError(
      await put(h, `/workspaces/${b.id}/snapshot`, snap),
      400,
      'invalid_request',
      'workspace.id',
    );
  });

  test('an unknown workspace is 404 not_found, and nothing is written', async () => {
    const h = harness();
    const a = await h.workspace();
    const snap = await snapshotOf(h, a.id);
    const seq = h.rt.store.seq;
    expectError(await put(h, `/workspaces/${UNKNOWN}/snapshot`, snap), 404, 'not_found');
    expect(h.rt.store.seq).toBe(seq);
  });

  test('a body that is not a snapshot is 400 naming the field', async () => {
    const h = harness();
    const ws = await h.workspace();
    const snap = await snapshotOf(h, ws.id);
    const seq = h.rt.store.seq;
    expectError(
      await put(h, `/workspaces/${ws.id}/snapshot`, { ...snap, format: 'svc-data' }, true),
      400,
      'invalid_request',
      'format',
    );
    const { keys: _keys, ...noKeys } = snap;
    expectError(
      await put(h, `/workspaces/${ws.id}/snapshot`, noKeys, true),
      400,
      'invalid_request',
      'keys',
    );
    const twice = {
      ...snap,
      collections: {
        ...snap.collections,
        users: [snap.collections.users[0], snap.collections.users[0]],
      },
    };
    expectError(
      await put(h, `/workspaces/${ws.id}/snapshot`, twice),
      400,
      'invalid_request',
      'collections.users[1].id',
    );
    expect(h.rt.store.seq).toBe(seq);
  });

  test('a deleted contact restored keeps its 30-day purge on the clock', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace();
    const c = await ok(ws.api.post('/contacts', { first_name: 'Purged' }), 201);
    await ok(ws.api.delete(`/contacts/${c.id}`));
    const snap = await snapshotOf(h, ws.id);
    await ok(h.admin.post(`/contacts/${c.id}/restore`));
    await ok(put(h, `/workspaces/${ws.id}/snapshot`, snap));
    await ok(h.admin.post('/clock', { advance_seconds: 31 * 86400 }));
    const after = await snapshotOf(h, ws.id);
    expect((after.collections.contacts ?? []).some((r: { id: string }) => r.id === c.id)).toBe(
      false,
    );
  });
});

describe('POST /__admin/workspaces {snapshot}', () => {
  test('makes a new workspace with the same content under new ids, and new keys', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'small', seed: 3 });
    const snap = await snapshotOf(h, ws.id);
    const made = await ok(h.admin.post('/workspaces', { snapshot: snap, name: 'Copy' }), 201);
    expect(made.id).not.toBe(ws.id);
    expect(made.name).toBe('Copy');
    const copy = h.as(made.keys.write.key);
    const original = (await ws.api.get('/contacts', { query: { limit: 100 } })).body.data;
    const copied = (await copy.get('/contacts', { query: { limit: 100 } })).body.data;
    // Records made in the same millisecond are ordered by id, and the ids are new.
    const names = (list: { first_name: string }[]) => list.map((c) => c.first_name).sort();
    expect(names(copied)).toEqual(names(original));
    const ids = new Set(original.map((c: { id: string }) => c.id));
    expect(copied.some((c: { id: string }) => ids.has(c.id))).toBe(false);
    expect((await h.as(made.keys.read.key).get('/ping')).body.key.access).toBe('read');
    expect(made.keys.write.key).not.toBe(ws.keys.write.key);
    expect((await ws.api.get('/ping')).body.workspace_id).toBe(ws.id);
  });

  test('a snapshot with a profile or a seed is refused, naming the field', async () => {
    const h = harness();
    const ws = await h.workspace();
    const snap = await snapshotOf(h, ws.id);
    const count = (await h.admin.get('/workspaces')).body.data.length;
    expectError(
      await h.admin.post('/workspaces', { snapshot: snap, profile: 'small' }),
      400,
      'invalid_request',
      'profile',
    );
    expectError(
      await h.admin.post('/workspaces', { snapshot: snap, seed: 2 }),
      400,
      'invalid_request',
      'seed',
    );
    expectError(
      await h.admin.post('/workspaces', { snapshot: { ...snap, version: 2 } }, { invalid: true }),
      400,
      'invalid_request',
      'snapshot.version',
    );
    expect((await h.admin.get('/workspaces')).body.data.length).toBe(count);
  });

  test('the copy starts with an empty delivery log', async () => {
    const h = harness({ rateLimit: null, allowLocalTargets: true, webhookCoalesceMs: 0 });
    const ws = await h.workspace();
    await ok(ws.api.post('/webhooks', { target_url: 'http://127.0.0.1:9/hook', event: '*' }), 201);
    await ok(ws.api.post('/contacts', { first_name: 'Heard' }), 201);
    const snap = await snapshotOf(h, ws.id);
    expect(snap.collections.webhook_events.length).toBeGreaterThan(0);
    const made = await ok(h.admin.post('/workspaces', { snapshot: snap }), 201);
    const copy = await snapshotOf(h, made.id);
    expect(copy.collections.webhooks).toHaveLength(1);
    expect(copy.collections.webhook_events ?? []).toHaveLength(0);
    expect(copy.collections.deliveries ?? []).toHaveLength(0);
  });
});
