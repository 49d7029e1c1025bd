import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cleanup, http, runSvc, type Server, startServe, tempDir } from '../support/spawn';

// The issue-18 probe's findings on `svc trigger`, as a real process against a spawned svc: the
// override examples of docs/cli/trigger.md, overrides into lists, overrides the server ignored,
// what a wrong --server, a server that is down and a read key say, and the key a trigger makes
// going after it.

let server: Server;
let ws: { id: string; write: string; read: string };

beforeAll(async () => {
  const dir = await tempDir();
  server = await startServe(join(dir, 'data.json'), ['--allow-local-targets', '--no-seed']);
  const made = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  ws = { id: made.body.id, write: made.body.keys.write.key, read: made.body.keys.read.key };
});
afterAll(cleanup);

/** The id of the record a `POST /<what> -> 201 <object> <id>` line reports. */
function madeId(stdout: string, path: string): string {
  const found = new RegExp(`^ {2}POST ${path} -> 201 \\w+ ([0-9a-f-]{36})$`, 'm').exec(stdout);
  if (!found?.[1]) {
    throw new Error(`no POST ${path} in ${stdout}`);
  }
  return found[1];
}

describe('the override examples of docs/cli/trigger.md work', () => {
  const examples: [string, string[], string, Record<string, unknown>][] = [
    [
      'job.created',
      ['--override', 'name=Hail claim 42', '--override', 'priority=high'],
      '/jobs',
      { name: 'Hail claim 42', priority: 'high' },
    ],
    ['contact.created', ['--override', 'type=adjuster'], '/contacts', { type: 'adjuster' }],
    ['payment.received', ['--override', 'amount=125.5'], '/payments', { amount: 125.5 }],
    ['job.created', ['--override', 'tags=["hail"]'], '/jobs', { tags: ['hail'] }],
    ['job.created', ['--override', 'assigned_to=null'], '/jobs', { assigned_to_id: null }],
    [
      'invoice.paid',
      ['--override', 'title=Final invoice', '--override', 'purpose=contract'],
      '/invoices',
      { title: 'Final invoice', purpose: 'contract' },
    ],
  ];
  for (const [event, flags, path, expected] of examples) {
    test(`svc trigger ${event} ${flags.filter((f) => f !== '--override').join(' ')}`, async () => {
      const run = await runSvc([
        'trigger',
        event,
        '--server',
        server.url,
        '--key',
        ws.write,
        ...flags,
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const record = await http(`${server.url}/v1${path}/${madeId(run.stdout, path)}`, {
        key: ws.write,
      });
      expect(record.body).toMatchObject(expected);
    });
  }

  test('a numeric segment goes into a list the recipe has: line_items.0.unit_price=999', async () => {
    const run = await runSvc([
      'trigger',
      'invoice.created',
      '--server',
      server.url,
      '--key',
      ws.write,
      '--override',
      'line_items.0.unit_price=999',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const invoice = await http(`${server.url}/v1/invoices/${madeId(run.stdout, '/invoices')}`, {
      key: ws.write,
    });
    // the invoice does not echo its lines; its totals are the one line's 999
    expect(invoice.body).toMatchObject({ subtotal: 999, total_amount: 999 });
  });
});

test('an override the server ignored is warned about, one line, exit still 0', async () => {
  const run = await runSvc([
    'trigger',
    'job.created',
    '--server',
    server.url,
    '--key',
    ws.write,
    '--override',
    'no_such_field=1',
    '--override',
    'name=Kept',
  ]);
  expect(run.code).toBe(0);
  expect(run.stderr).toBe(
    'warning: no_such_field is not a field of the job: the server ignored it\n',
  );
});

test('the header names the event once', async () => {
  const run = await runSvc(['trigger', 'job.created', '--server', server.url, '--key', ws.write]);
  expect(run.stdout.split('\n')[0]).toBe('svc trigger job.created: a job');
});

describe('usage errors say what is wrong, exit 2', () => {
  test('--server that is no URL names --server', async () => {
    const run = await runSvc(['trigger', 'job.created', '--server', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('error: --server must be an http: or https: URL, not nope\n');
  });

  test('a server that is down: cannot reach URL: connection refused', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const run = await runSvc(['trigger', 'job.created', '--server', `http://127.0.0.1:${port}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`error: cannot reach http://127.0.0.1:${port}: connection refused\n`);
  });

  test('a read-only --key: a read-only key cannot make changes, nothing made', async () => {
    const run = await runSvc(['trigger', 'job.created', '--server', server.url, '--key', ws.read]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: a read-only key cannot make changes/);
  });
});

test('--workspace: the key made for the trigger is revoked when it is done', async () => {
  const run = await runSvc([
    'trigger',
    'note.created',
    '--server',
    server.url,
    '--workspace',
    ws.id,
  ]);
  expect(run.code).toBe(0);
  const workspace = await http(`${server.url}/__admin/workspaces/${ws.id}`);
  const made = (workspace.body.keys as { name: string; revoked_at: string | null }[]).filter(
    (k) => k.name === 'svc trigger',
  );
  expect(made.length).toBeGreaterThan(0);
  expect(made.every((k) => k.revoked_at !== null)).toBe(true);
});
