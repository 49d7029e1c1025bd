// What a restore refuses (outside review, issue 19): a snapshot the API could not answer from is
// refused whole, naming the field, and nothing of it is written.
import { describe, expect, test } from 'vitest';
import { expectError, ok } from '../support/expect';
import { harness } from '../support/harness';
import { put, snapshotOf } from './setup';

async function small() {
  const h = harness({ rateLimit: null });
  const ws = await h.workspace({ profile: 'small', seed: 3 });
  return { h, ws, snap: await snapshotOf(h, ws.id) };
}

describe('PUT /__admin/workspaces/{id}/snapshot refuses a snapshot svc could not serve', () => {
  test('two keys with one id are 400 keys[1].id, and the write key stays a write key', async () => {
    const { h, ws, snap } = await small();
    const keys = structuredClone(snap.keys);
    keys[1].id = keys[0].id;
    expectError(
      await put(h, `/workspaces/${ws.id}/snapshot`, { ...snap, keys }),
      400,
      'invalid_request',
      'keys[1].id',
    );
    expect((await ws.api.get('/ping')).body.key.access).toBe('write');
  });

  test('a job id that is no lower-case UUID is 400 naming it', async () => {
    const { h, ws, snap } = await small();
    for (const id of ['not-a-uuid', snap.collections.jobs[0].id.toUpperCase()]) {
      const jobs = structuredClone(snap.collections.jobs);
      jobs[0].id = id;
      const res = await put(h, `/workspaces/${ws.id}/snapshot`, {
        ...snap,
        collections: { ...snap.collections, jobs },
      });
      expectError(res, 400, 'invalid_request', 'collections.jobs[0].id');
    }
  });

  test('a record the API could not show is 400 naming its field, and nothing is restored', async () => {
    const { h, ws, snap } = await small();
    const made = await ok(ws.api.post('/contacts', { first_name: 'Since' }), 201);
    const jobs = structuredClone(snap.collections.jobs);
    jobs[1].name = 42;
    const res = await put(h, `/workspaces/${ws.id}/snapshot`, {
      ...snap,
      collections: { ...snap.collections, jobs },
    });
    expectError(res, 400, 'invalid_request', 'collections.jobs[1].name');
    expect((await ws.api.get(`/contacts/${made.id}`)).status).toBe(200);
  });

  test('a copy refuses the same, and makes no workspace', async () => {
    const { h, snap } = await small();
    const jobs = structuredClone(snap.collections.jobs);
    jobs[2].name = 42;
    const before = (await h.admin.get('/workspaces')).body.data.length;
    const res = await h.admin.post('/workspaces', {
      snapshot: { ...snap, collections: { ...snap.collections, jobs } },
    });
    expectError(res, 400, 'invalid_request', 'snapshot.collections.jobs[2].name');
    expect((await h.admin.get('/workspaces')).body.data.length).toBe(before);
  });
});

describe('a copy shares no secret with the original', () => {
  test('new signing secrets and groups for its subscriptions, new portal links for its jobs', async () => {
    const h = harness({ rateLimit: null, allowLocalTargets: true });
    const ws = await h.workspace({ profile: 'small', seed: 4 });
    await ok(
      ws.api.post('/webhooks', {
        target_url: 'http://127.0.0.1:9/a',
        events: ['job.created', 'contact.created'],
      }),
      201,
    );
    const snap = await snapshotOf(h, ws.id);
    const made = await ok(h.admin.post('/workspaces', { snapshot: snap }), 201);
    const copy = await snapshotOf(h, made.id);
    const secrets = (s: typeof snap) =>
      s.collections.webhooks.map((w: { secrets: { secret: string }[] }) => w.secrets[0]?.secret);
    const [a, b] = secrets(copy);
    expect(a).toMatch(/^whsec_/);
    expect(a).toBe(b); // one request, one shared secret, as in the original
    expect(secrets(snap)).not.toContain(a);
    const groups = new Set(copy.collections.webhooks.map((w: { group_id: string }) => w.group_id));
    expect(groups.size).toBe(1);
    expect(snap.collections.webhooks.map((w: { group_id: string }) => w.group_id)).not.toContain(
      [...groups][0],
    );
    const tokens = new Set(
      snap.collections.jobs.map((j: { portal_token: string }) => j.portal_token),
    );
    expect(
      copy.collections.jobs.some((j: { portal_token: string }) => tokens.has(j.portal_token)),
    ).toBe(false);
  });
});

describe('POST /__admin/snapshot refuses references to nothing', () => {
  test('a key of a workspace the snapshot does not hold, a hash of a key it does not hold', async () => {
    const h = harness();
    const ws = await h.workspace();
    const snap = await ok(h.admin.get('/snapshot'));
    const keyed = structuredClone(snap);
    keyed.global.api_keys[ws.keys.write.id].workspace_id = '00000000-0000-4000-8000-000000000000';
    expectError(
      await h.admin.post('/snapshot', keyed),
      400,
      'invalid_request',
      `global.api_keys.${ws.keys.write.id}.workspace_id`,
    );
    const hashed = structuredClone(snap);
    const [hash] = Object.keys(hashed.global.key_hashes);
    hashed.global.key_hashes[hash as string].key_id = '00000000-0000-4000-8000-000000000000';
    expectError(
      await h.admin.post('/snapshot', hashed),
      400,
      'invalid_request',
      `global.key_hashes.${hash}.key_id`,
    );
    expect((await ws.api.get('/ping')).status).toBe(200);
  });
});

describe('what else a restore checks (second outside review)', () => {
  test('a subscription with no URL, an unknown event or an id in capitals is refused', async () => {
    const h = harness({ rateLimit: null, allowLocalTargets: true });
    const ws = await h.workspace();
    await ok(ws.api.post('/webhooks', { target_url: 'http://127.0.0.1:9/a', event: '*' }), 201);
    const snap = await snapshotOf(h, ws.id);
    const edits: [Record<string, unknown>, string][] = [
      [{ target_url: 'not a url' }, 'collections.webhooks[0].target_url'],
      [{ event: 'bogus.event' }, 'collections.webhooks[0].event'],
      [{ id: snap.collections.webhooks[0].id.toUpperCase() }, 'collections.webhooks[0].id'],
    ];
    for (const [edit, field] of edits) {
      const webhooks = [{ ...snap.collections.webhooks[0], ...edit }];
      const res = await put(h, `/workspaces/${ws.id}/snapshot`, {
        ...snap,
        collections: { ...snap.collections, webhooks },
      });
      expectError(res, 400, 'invalid_request', field);
    }
  });

  test('a key id in capitals is 400 keys[1].id; a hash that is another key’s is keys[0].hash', async () => {
    const h = harness();
    const ws = await h.workspace();
    const other = await h.workspace();
    const snap = await snapshotOf(h, ws.id);
    const keys = structuredClone(snap.keys);
    keys[1].id = keys[1].id.toUpperCase();
    expectError(
      await put(h, `/workspaces/${ws.id}/snapshot`, { ...snap, keys }),
      400,
      'invalid_request',
      'keys[1].id',
    );
    const theirs = (await snapshotOf(h, other.id)).keys[0].hash;
    const stolen = structuredClone(snap.keys);
    stolen[0].hash = theirs;
    expectError(
      await put(h, `/workspaces/${ws.id}/snapshot`, { ...snap, keys: stolen }),
      400,
      'invalid_request',
      'keys[0].hash',
    );
  });

  test('a store import refuses a record the API could not show, naming it', async () => {
    const h = harness();
    const ws = await h.workspace({ profile: 'small', seed: 3 });
    const snap = await ok(h.admin.get('/snapshot'));
    const jobs = snap.workspaces[ws.id].jobs;
    const id = Object.keys(jobs)[0] as string;
    const named = structuredClone(snap);
    named.workspaces[ws.id].jobs[id].name = 42;
    expectError(
      await h.admin.post('/snapshot', named),
      400,
      'invalid_request',
      `workspaces.${ws.id}.jobs.${id}.name`,
    );
    const renamed = structuredClone(snap);
    renamed.workspaces[ws.id].jobs['not-a-uuid'] = { ...jobs[id], id: 'not-a-uuid' };
    expectError(
      await h.admin.post('/snapshot', renamed),
      400,
      'invalid_request',
      `workspaces.${ws.id}.jobs.not-a-uuid.id`,
    );
    expect((await ws.api.get(`/jobs/${id}`)).body.name).toBe(jobs[id].name);
  });
});

describe("a restore takes nothing of another workspace's (the issue 37 probe)", () => {
  async function two() {
    const h = harness({ rateLimit: null });
    const a = await h.workspace({ profile: 'small', seed: 3 });
    const b = await h.workspace({ profile: 'small', seed: 4 });
    return { h, a, b, snapA: await snapshotOf(h, a.id), snapB: await snapshotOf(h, b.id) };
  }

  test("a record id another workspace holds is 400 naming it, and that workspace's record stays its own", async () => {
    const { h, a, b, snapA, snapB } = await two();
    for (const coll of ['jobs', 'payments', 'webhooks'] as const) {
      const mine = structuredClone(snapA.collections[coll] ?? []);
      const theirs = snapB.collections[coll] ?? [];
      if (mine.length === 0 || theirs.length === 0) {
        continue;
      }
      const last = mine.length - 1;
      mine[last].id = theirs[0].id;
      expectError(
        await put(h, `/workspaces/${a.id}/snapshot`, {
          ...snapA,
          collections: { ...snapA.collections, [coll]: mine },
        }),
        400,
        'invalid_request',
        `collections.${coll}[${last}].id`,
      );
    }
    const job = snapB.collections.jobs[0];
    expect((await b.read.get(`/jobs/${job.id}`)).body.name).toBe(job.name);
    expect((await a.read.get(`/jobs/${job.id}`)).status).toBe(404);
  });

  test("a job's portal_token that is another workspace's job's is 400 naming it", async () => {
    const { h, a, snapA, snapB } = await two();
    const jobs = structuredClone(snapA.collections.jobs);
    jobs[1].portal_token = snapB.collections.jobs[0].portal_token;
    expectError(
      await put(h, `/workspaces/${a.id}/snapshot`, {
        ...snapA,
        collections: { ...snapA.collections, jobs },
      }),
      400,
      'invalid_request',
      'collections.jobs[1].portal_token',
    );
  });

  test('an OAuth connection or a replay another workspace holds is 400 naming it', async () => {
    const { h, a, b, snapA } = await two();
    // b gets a replay remembered and a connection of its own.
    await b.api.post(
      '/contacts',
      { first_name: 'Ann', type: 'homeowner' },
      {
        headers: { 'Idempotency-Key': 'k-1' },
      },
    );
    const theirs = await snapshotOf(h, b.id);
    expect(theirs.idempotency.length).toBeGreaterThan(0);
    expectError(
      await put(h, `/workspaces/${a.id}/snapshot`, { ...snapA, idempotency: theirs.idempotency }),
      400,
      'invalid_request',
      'idempotency[0].id',
    );
  });

  test('a clock lead that would pass the year 9999 is 400 workspace.clock_offset_ms', async () => {
    const { h, a, snapA } = await two();
    const workspace = { ...snapA.workspace, clock_offset_ms: 300_000_000_000_000 };
    expectError(
      await put(h, `/workspaces/${a.id}/snapshot`, { ...snapA, workspace }),
      400,
      'invalid_request',
      'workspace.clock_offset_ms',
    );
    const now = Date.parse((await h.admin.get(`/workspaces/${a.id}/clock`)).body.now);
    expect(now).toBeLessThan(Date.UTC(2100, 0, 1));
  });

  test('a restore keeps when the workspace ends: a snapshot neither lifts nor moves it', async () => {
    const h = harness({ rateLimit: null });
    const made = await ok(h.admin.post('/workspaces', { expires_in_seconds: 3600 }), 201);
    const snap = await snapshotOf(h, made.id);
    for (const expires_at of [null, '9000-01-01T00:00:00.000Z']) {
      const restored = await ok(
        put(h, `/workspaces/${made.id}/snapshot`, {
          ...snap,
          workspace: { ...snap.workspace, expires_at },
        }),
      );
      expect(restored.expires_at).toBe(made.expires_at);
    }
  });
});
