import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { cleanup, http, runSvc, type Server, startServe, tempDir } from '../support/spawn';

// The second probe of issue 18 on `svc trigger`: an override into a list the recipe has not
// is exit 2 before anything is made, naming the whole path; --workspace of a plan that is off.

let server: Server;
let ws: { id: string; write: string };

beforeAll(async () => {
  const dir = await tempDir();
  server = await startServe(join(dir, 'data.json'), ['--allow-local-targets', '--no-seed']);
  const made = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  ws = { id: made.body.id, write: made.body.keys.write.key };
});
afterAll(cleanup);

async function jobCount(key: string): Promise<number> {
  return (await http(`${server.url}/v1/jobs`, { key })).body.data.length;
}

test('estimate.created has a line_items list: line_items.0.unit_price=999 prices the estimate', async () => {
  const run = await runSvc([
    ...['trigger', 'estimate.created', '--server', server.url, '--key', ws.write],
    ...['--override', 'line_items.0.unit_price=999'],
  ]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const id = /POST \/estimates -> 201 estimate ([0-9a-f-]{36})/.exec(run.stdout)?.[1];
  const estimate = await http(`${server.url}/v1/estimates/${id}`, { key: ws.write });
  expect(estimate.body).toMatchObject({ status: 'draft', total: 999 });
});

test('estimate.created without overrides still makes a draft estimate of 12500', async () => {
  const run = await runSvc([
    'trigger',
    'estimate.created',
    '--server',
    server.url,
    '--key',
    ws.write,
  ]);
  expect(run.code).toBe(0);
  const id = /POST \/estimates -> 201 estimate ([0-9a-f-]{36})/.exec(run.stdout)?.[1];
  const estimate = await http(`${server.url}/v1/estimates/${id}`, { key: ws.write });
  expect(estimate.body).toMatchObject({ status: 'draft', total: 12500 });
});

test.each([
  [
    'past the end of the list',
    'estimate.created',
    'line_items.5.unit_price=1',
    'line_items.5.unit_price',
  ],
  ['where the recipe has no list', 'job.created', 'tags.0.name=x', 'tags.0.name'],
  ['into a field that is no list', 'job.created', 'name.0=x', 'name.0'],
])(
  'an override path stepping %s exits 2 before anything is made, naming the whole path',
  async (_, event, override, path) => {
    const before = await jobCount(ws.write);
    const run = await runSvc([
      ...['trigger', event, '--server', server.url, '--key', ws.write, '--override', override],
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^error: --override ${path.replace(/\./g, '\\.')}: `));
    expect(await jobCount(ws.write)).toBe(before);
  },
);

test('--workspace whose plan is off: exit 2 before anything is made, the key made revoked', async () => {
  const made = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  const id = made.body.id as string;
  await http(`${server.url}/__admin/workspaces/${id}`, {
    method: 'PATCH',
    body: { subscription_active: false },
  });
  const run = await runSvc(['trigger', 'job.created', '--server', server.url, '--workspace', id]);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe(
    `error: workspace ${id} has no active subscription (GET /ping answered 402); switch it on first\n`,
  );
  const workspace = await http(`${server.url}/__admin/workspaces/${id}`);
  const keys = (workspace.body.keys as { name: string; revoked_at: string | null }[]).filter(
    (k) => k.name === 'svc trigger',
  );
  expect(keys.length).toBe(1);
  expect(keys.every((k) => k.revoked_at !== null)).toBe(true);
});
