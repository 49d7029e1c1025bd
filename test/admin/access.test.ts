import { describe, expect, test } from 'vitest';
import { ok } from '../support/expect';
import { type Harness, harness, type Json, type TestWorkspace } from '../support/harness';

// Issue 37: the control API's door. With --admin-token, every operation of the admin document
// answers 401 without the token or with a wrong one; a workspace's control token reaches that
// workspace alone (403 for another workspace or the whole server); the admin token reaches all.

const ADMIN_TOKEN = 'team-secret-admin-token';

/** Operations about the whole server: no control token reaches them. */
const SERVER = new Set([
  'POST /workspaces',
  'GET /clock',
  'POST /clock',
  'GET /snapshot',
  'POST /snapshot',
  'POST /oauth/apps',
  'GET /oauth/apps',
]);

/**
 * Lists (and the writes that name their workspace in the body: a fault, the consent page's answer)
 * a control token reads and writes within its workspace. test/oauth/admin-authorize.test.ts tries
 * an answer naming another workspace: 403.
 */
const LISTS = new Set([
  'POST /oauth/authorize',
  'GET /workspaces',
  'GET /requests',
  'GET /webhooks',
  'GET /notifications',
  'GET /faults',
  'POST /faults',
  'DELETE /faults',
]);

/** Run last, in this order: each undoes something the others name. */
const LAST = [
  'DELETE /faults/{id}',
  'DELETE /faults',
  'DELETE /keys/{id}',
  'DELETE /workspaces/{id}',
];

type Operation = { method: string; path: string };

async function operations(h: Harness): Promise<Operation[]> {
  const doc = (await (await h.app.request('/__admin/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const all = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({ method: method.toUpperCase(), path })),
  );
  const rank = (op: Operation) => LAST.indexOf(`${op.method} ${op.path}`);
  return all.sort((a, b) => rank(a) - rank(b));
}

/** Ids of workspace A's records of every kind an admin path names. */
async function idsOf(h: Harness, a: TestWorkspace): Promise<Record<string, string>> {
  const first = async (path: string) => (await ok(a.api.get(path))).data[0]?.id as string;
  const hook = await ok(
    a.api.post('/webhooks', { event: 'job.created', target_url: 'https://93.184.216.34/h' }),
    201,
  );
  await ok(a.api.post('/jobs', { name: 'A', address: '1 Main St' }), 201);
  const deliveries = await ok(h.admin.get(`/webhooks/${hook.id}/deliveries`, auth(ADMIN_TOKEN)));
  const fault = await ok(
    h.admin.post(
      '/faults',
      { match: { workspace_id: a.id, path: '/nothing' }, action: { status: 503 } },
      auth(ADMIN_TOKEN),
    ),
    201,
  );
  return {
    workspaces: a.id,
    jobs: await first('/jobs'),
    contacts: await first('/contacts'),
    estimates: await first('/estimates'),
    invoices: await first('/invoices'),
    payments: await first('/payments'),
    pins: await first('/pins'),
    webhooks: hook.id,
    deliveries: deliveries.data[0].id,
    faults: fault.id,
    keys: a.keys.read.id,
  };
}

const auth = (token: string | undefined) =>
  token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } };

/** The path with its ids filled in from A's records. */
function concrete(op: Operation, ids: Record<string, string>): string {
  const [, head = ''] = op.path.split('/');
  return op.path
    .replace('{id}', ids[head] ?? ids.workspaces ?? '')
    .replace('{cid}', '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11');
}

function call(h: Harness, op: Operation, path: string, token: string | undefined) {
  const headers: Record<string, string> = {
    ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
    ...(op.method === 'GET' || op.method === 'DELETE'
      ? {}
      : { 'Content-Type': 'application/json' }),
  };
  return h.admin.raw(op.method, path, {
    headers,
    ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { body: '{}' }),
    invalid: true,
  });
}

describe('the control API with --admin-token', () => {
  test('every operation: 401 without the token or with a wrong one; a control token reaches its own workspace alone; the admin token everything', async () => {
    const h = harness({ rateLimit: null, adminToken: ADMIN_TOKEN });
    const make = async () => {
      const made = await ok(
        h.admin.post('/workspaces', { profile: 'demo' }, auth(ADMIN_TOKEN)),
        201,
      );
      return {
        ...made,
        api: h.as(made.keys.write.key),
        read: h.as(made.keys.read.key),
      } as TestWorkspace & { control_token: string };
    };
    const [a, b] = [await make(), await make()];
    const ids = await idsOf(h, a);
    const wrong: string[] = [];
    const ops = await operations(h);
    expect(ops.length).toBeGreaterThanOrEqual(45);
    for (const op of ops) {
      const name = `${op.method} ${op.path}`;
      const path = concrete(op, ids);
      const status = async (token: string | undefined) => (await call(h, op, path, token)).status;
      const expectations: [string, string | undefined, (s: number) => boolean][] = [
        ['no token', undefined, (s) => s === 401],
        ['a wrong token', 'not-the-token', (s) => s === 401],
        ['an unknown control token', 'svc_ctl_nobody', (s) => s === 401],
        [
          "another workspace's control token",
          b.control_token,
          (s) => (LISTS.has(name) ? s !== 401 && s !== 403 : s === 403),
        ],
        [
          "the workspace's own control token",
          a.control_token,
          (s) => (SERVER.has(name) ? s === 403 : s !== 401 && s !== 403),
        ],
        ['the admin token', ADMIN_TOKEN, (s) => s !== 401 && s !== 403],
      ];
      for (const [who, token, expected] of expectations) {
        const got = await status(token);
        if (!expected(got)) {
          wrong.push(`${name} with ${who}: ${got}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  test('a refusal is the spec envelope: 401 unauthorized, 403 forbidden', async () => {
    const h = harness({ rateLimit: null, adminToken: ADMIN_TOKEN });
    const none = await h.admin.get('/workspaces');
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({ code: 'unauthorized' });
    expect(none.body.error.request_id).toEqual(expect.any(String));
    const made = await ok(h.admin.post('/workspaces', {}, auth(ADMIN_TOKEN)), 201);
    const server = await h.admin.get('/clock', auth(made.control_token));
    expect(server.status).toBe(403);
    expect(server.body.error).toMatchObject({ code: 'forbidden' });
  });

  test('the document stays readable without a token, and names both schemes', async () => {
    const h = harness({ rateLimit: null, adminToken: ADMIN_TOKEN });
    const res = await h.app.request('/__admin/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Json;
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'adminToken',
      'controlToken',
    ]);
  });
});

describe('a control token', () => {
  test("lists its workspace alone, and another workspace's list is 403", async () => {
    const h = harness({ rateLimit: null });
    const a = await h.workspace();
    const b = await h.workspace();
    const token = (a as unknown as { control_token: string }).control_token;
    await a.api.get('/jobs');
    await b.api.get('/jobs');
    const listed = await ok(h.admin.get('/workspaces', auth(token)));
    expect(listed.data.map((w: { id: string }) => w.id)).toEqual([a.id]);
    const requests = await ok(h.admin.get('/requests', auth(token)));
    expect(new Set(requests.data.map((e: { workspace_id: string }) => e.workspace_id))).toEqual(
      new Set([a.id]),
    );
    const theirs = await h.admin.get('/requests', {
      ...auth(token),
      query: { workspace_id: b.id },
    });
    expect(theirs.status).toBe(403);
  });

  test('makes faults of its workspace only, named or not, and clears only those', async () => {
    const h = harness({ rateLimit: null });
    const [a, b] = [await h.workspace(), await h.workspace()];
    const token = (a as unknown as { control_token: string }).control_token;
    const mine = await ok(
      h.admin.post('/faults', { match: { path: '/jobs' }, action: { status: 503 } }, auth(token)),
      201,
    );
    expect(mine.match.workspace_id).toBe(a.id);
    const other = await h.admin.post(
      '/faults',
      { match: { workspace_id: b.id }, action: { status: 503 } },
      auth(token),
    );
    expect(other.status).toBe(403);
    const theirs = await ok(
      h.admin.post('/faults', { match: { workspace_id: b.id }, action: { status: 503 } }),
      201,
    );
    expect((await h.admin.get(`/faults/${theirs.id}`, auth(token))).status).toBe(403);
    expect((await ok(h.admin.delete('/faults', auth(token)))).deleted).toBe(1);
    const left = (await ok(h.admin.get('/faults'))).data.map((f: { id: string }) => f.id);
    expect(left).toEqual([theirs.id]);
  });

  test("a deleted subscription's delivery log stays its workspace's: another's control token is 403", async () => {
    const h = harness({ rateLimit: null });
    const [a, b] = [await h.workspace(), await h.workspace()];
    const tokenOf = (ws: TestWorkspace) =>
      (ws as unknown as { control_token: string }).control_token;
    const hook = await ok(
      a.api.post('/webhooks', { event: 'job.created', target_url: 'https://93.184.216.34/h' }),
      201,
    );
    await ok(a.api.post('/jobs', { name: 'A', address: '1 Main St' }), 201);
    await ok(a.api.delete(`/webhooks/${hook.id}`));
    const path = `/webhooks/${hook.id}/deliveries`;
    const own = await ok(h.admin.get(path, auth(tokenOf(a))));
    expect(own.data).toHaveLength(1);
    const other = await h.admin.get(path, auth(tokenOf(b)));
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('forbidden');
    expect(other.text).not.toContain(own.data[0].id);
  });

  test('on a server without an admin token, no token still reaches everything', async () => {
    const h = harness({ rateLimit: null });
    expect((await h.admin.get('/clock')).status).toBe(200);
    expect((await h.admin.get('/clock', auth('svc_ctl_unknown'))).status).toBe(401);
  });

  test('stops working when its workspace is deleted', async () => {
    const h = harness({ rateLimit: null });
    const a = await h.workspace();
    const token = (a as unknown as { control_token: string }).control_token;
    expect((await h.admin.get(`/workspaces/${a.id}/clock`, auth(token))).status).toBe(200);
    await ok(h.admin.delete(`/workspaces/${a.id}`, auth(token)));
    expect((await h.admin.get(`/workspaces/${a.id}/clock`, auth(token))).status).toBe(401);
    expect([...h.rt.store.global.values('control_tokens')]).toEqual([]);
  });
});
