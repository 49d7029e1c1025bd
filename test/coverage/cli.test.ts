// svc coverage as a real process against a spawned svc serve (issue 19): the known session's
// counts from --json, the table, --workspace, and bad usage as exit 2 with one line on stderr.
// Only processes started here are ever signalled (test/support/spawn.ts).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Receiver } from '../support/receiver';
import { cleanup, http, runSvc, type Server, startServe, tempDir } from '../support/spawn';

let svc: Server;
let rx: Receiver;
let wsId: string;
let otherId: string;

async function workspace(): Promise<{ id: string; key: string }> {
  const made = await http(`${svc.url}/__admin/workspaces`, {
    method: 'POST',
    body: { profile: 'empty' },
  });
  expect(made.status).toBe(201);
  return { id: made.body.id, key: made.body.keys.write.key };
}

beforeAll(async () => {
  const dir = await tempDir();
  svc = await startServe(join(dir, 'data.json'), ['--no-seed', '--allow-local-targets']);
  rx = await Receiver.start();
  rx.answer((_req, n) => (n === 1 ? 500 : 200));
  const ws = await workspace();
  const other = await workspace();
  wsId = ws.id;
  otherId = other.id;
  const v1 = `${svc.url}/v1`;
  const as = { key: ws.key };
  const hook = { event: 'contact.created', target_url: rx.url };
  expect((await http(`${v1}/webhooks`, { ...as, method: 'POST', body: hook })).status).toBe(201);
  for (const body of [{ first_name: 'Ada' }, { first_name: 'Bob' }, {}]) {
    await http(`${v1}/contacts`, { ...as, method: 'POST', body });
  }
  expect((await http(`${v1}/nope`, as)).status).toBe(404);
  expect((await http(`${v1}/ping`, { key: other.key })).status).toBe(200);
  const clock = `${svc.url}/__admin/clock`;
  await http(clock, { method: 'POST', body: { advance_seconds: 1 } });
  await rx.waitFor(2);
  await http(clock, { method: 'POST', body: { advance_seconds: 60 } });
  await rx.waitFor(3);
}, 30_000);

afterAll(async () => {
  await rx.close();
  await cleanup();
});

async function coverageJson(args: string[]) {
  const run = await runSvc(['coverage', '--from', svc.url, ...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

describe('svc coverage --json against a running svc', () => {
  test("the session's operations, error codes and events are exact", async () => {
    const c = await coverageJson(['--workspace', wsId]);
    expect(
      c.operations.map((o: { method: string; path: string }) => `${o.method} ${o.path}`),
    ).toEqual(['POST /contacts', 'POST /webhooks']);
    expect(c.operations[0]).toMatchObject({ calls: 3, statuses: { '201': 2, '400': 1 } });
    expect(c.error_codes).toEqual({ invalid_request: 1, not_found: 1 });
    expect(c.unmatched).toEqual([
      { method: 'GET', path: '/v1/nope', calls: 1, statuses: { '404': 1 } },
    ]);
    expect(c.events).toEqual([
      {
        event: 'contact.created',
        deliveries: 2,
        statuses: { '200': 2, '500': 1 },
        states: { succeeded: 2 },
        retried: 1,
        faulted: 0,
      },
    ]);
    const never = c.never_called.map(
      (e: { method: string; path: string }) => `${e.method} ${e.path}`,
    );
    expect(never).toContain('GET /contacts/{id}');
    expect(never).not.toContain('POST /contacts');
  });

  test('--workspace of another workspace sees only its calls, and no deliveries', async () => {
    const c = await coverageJson(['--workspace', otherId]);
    expect(c.requests).toBe(1);
    expect(c.operations).toMatchObject([{ method: 'GET', path: '/ping', calls: 1 }]);
    expect(c.events).toEqual([]);
  });

  test('without --workspace, every workspace; --from may name /v1', async () => {
    const run = await runSvc(['coverage', '--from', `${svc.url}/v1/`, '--json']);
    expect(run.code).toBe(0);
    const c = JSON.parse(run.stdout);
    expect(c.workspace_id).toBeNull();
    expect(c.requests).toBe(6);
  });
});

describe('svc coverage prints a table', () => {
  test('sections within 100 columns, exit 0', async () => {
    const run = await runSvc(['coverage', '--from', svc.url, '--workspace', wsId]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual([
      `Coverage of ${svc.url} (workspace ${wsId})`,
      '5 requests, 2 deliveries',
    ]);
    expect(run.stdout).toMatch(/^ {2}POST {4}\/contacts +3 {2}201 x2, 400 x1$/m);
    expect(run.stdout).toMatch(/^ {2}contact\.created +2 +1 {2}200 x2, 500 x1$/m);
    expect(run.stdout).toContain('\nNever exercised\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(100);
  });
});

describe('bad usage exits 2 with one line on stderr', () => {
  test.each([
    ['no --from', () => ['coverage'], /^error: give --from URL/],
    ['a --from that is no URL', () => ['coverage', '--from', 'svc.local'], /^error: --from is/],
    [
      'a --from nothing answers',
      () => ['coverage', '--from', 'http://127.0.0.1:9'],
      /^svc: cannot reach http:\/\/127\.0\.0\.1:9: connection refused$/,
    ],
    [
      'a --from that is no svc',
      () => ['coverage', '--from', rx.url.replace(/\/hook$/, '')],
      /is http:\/\/127\.0\.0\.1:\d+ a svc\?$/,
    ],
    [
      'a --workspace the svc does not have',
      () => ['coverage', '--from', svc.url, '--workspace', '00000000-0000-4000-8000-000000000000'],
      /has no workspace 00000000-0000-4000-8000-000000000000$/,
    ],
    ['an unknown option', () => ['coverage', '--from', 'http://127.0.0.1:9', '--bogus'], /bogus/],
  ])('%s', async (_why, args, message) => {
    const run = await runSvc(args());
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });

  test('--help describes the flags and exits 0', async () => {
    const run = await runSvc(['coverage', '--help']);
    expect(run.code).toBe(0);
    for (const flag of ['--from <url>', '--workspace <id>', '--json']) {
      expect(run.stdout).toContain(flag);
    }
  });
});
