import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runScenarios } from '../../src/clients/scenario';
import { limits } from '../../src/clients/scenario/http';
import { substitute } from '../../src/clients/scenario/substitute';
import { hasControlApi } from '../../src/clients/scenario/target';
import { BIN, cleanup, http, runSvc, type Server, startServe, tempDir } from '../support/spawn';

// The second probe of issue 18 on `svc scenario run`: Ctrl-C against a --base-url svc runs the
// scenario's teardown, keys checked for their access, messages that say what is wrong, and no
// 0-byte --junit file left by a run that ran nothing.

let server: Server;
let dir: string;
let ws: { id: string; write: string; read: string };

async function workspace(): Promise<{ id: string; write: string; read: string }> {
  const made = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  return { id: made.body.id, write: made.body.keys.write.key, read: made.body.keys.read.key };
}

beforeAll(async () => {
  dir = await tempDir();
  server = await startServe(join(dir, 'data.json'), ['--allow-local-targets', '--no-seed']);
  ws = await workspace();
});
afterAll(cleanup);

const PLAN_OFF_THEN_WAIT = [
  'name: plan off then a long wait',
  'steps:',
  '  - webhook: {event: contact.created}',
  '  - admin: {method: PATCH, path: "/__admin/workspaces/{{workspace_id}}", body: {subscription_active: false}}',
  '  - delivery: {event: contact.created, none: true, within_ms: 15000}',
  'teardown:',
  '  - admin: {method: PATCH, path: "/__admin/workspaces/{{workspace_id}}", body: {subscription_active: true}}',
  '',
].join('\n');

describe('Ctrl-C during a --base-url run runs the teardown and removes the subscriptions', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`${signal} after the plan is switched off: exit 130, the plan on again, no webhook left`, async () => {
      const target = await workspace();
      const file = join(dir, `plan-off-${signal}.yaml`);
      await writeFile(file, PLAN_OFF_THEN_WAIT);
      const child = spawn(
        process.execPath,
        [BIN, 'scenario', 'run', file, '--base-url', server.url, '--key', target.write],
        { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      try {
        const deadline = Date.now() + 10_000;
        let off = false;
        while (Date.now() < deadline && !off) {
          const state = await http(`${server.url}/__admin/workspaces/${target.id}`);
          off = state.body.subscription_active === false;
          if (!off) {
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        expect(off).toBe(true);
        const exited = new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
        const sent = Date.now();
        child.kill(signal);
        expect(await exited).toBe(130);
        expect(Date.now() - sent).toBeLessThan(11_000);
        const state = await http(`${server.url}/__admin/workspaces/${target.id}`);
        expect(state.body.subscription_active).toBe(true);
        const hooks = await http(`${server.url}/v1/webhooks`, { key: target.write });
        expect(hooks.body.data).toEqual([]);
      } finally {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGKILL');
        }
      }
    }, 30_000);
  }
});

const ONE = 'test/scenario/fixtures/fail/01-passes.yaml';

describe('--key and --read-key are checked for their access before anything runs', () => {
  test('--key must be a write key: a read-only --key exits 2 with one line', async () => {
    const run = await runSvc(['scenario', 'run', ONE, '--base-url', server.url, '--key', ws.read]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: --key must be a write key; .+ is read-only\n$/);
  });

  test('--read-key is a write key: exit 2', async () => {
    const args = ['--base-url', server.url, '--key', ws.write, '--read-key', ws.write];
    const run = await runSvc(['scenario', 'run', ONE, ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: --read-key is a write key/);
  });

  test('--read-key of another workspace than --key: exit 2', async () => {
    const other = await workspace();
    const args = ['--base-url', server.url, '--key', ws.write, '--read-key', other.read];
    const run = await runSvc(['scenario', 'run', ONE, ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--read-key is a key of workspace ${other.id}, --key of ${ws.id}`);
  });
});

describe('messages say what is wrong', () => {
  async function reasonOf(name: string, text: string): Promise<string | null | undefined> {
    const file = join(dir, name);
    await writeFile(file, text);
    const report = await runScenarios({ paths: [file] });
    return report.results[0]?.reason;
  }

  test('a bad regex in expect.status or expect.headers is not a valid regular expression', async () => {
    const status = await reasonOf(
      'bad-status-regex.yaml',
      'name: x\nsteps:\n  - request: {method: GET, path: /ping}\n    expect: {status: {match: "[2-"}}\n',
    );
    expect(status).toMatch(
      /steps\.0\.expect\.status\.match: "\[2-" is not a valid regular expression/,
    );
    const header = await reasonOf(
      'bad-header-regex.yaml',
      'name: x\nsteps:\n  - request: {method: GET, path: /ping}\n    expect: {headers: {x-a: {match: "(a"}}}\n',
    );
    expect(header).toMatch(/expect\.headers\.x-a\.match: "\(a" is not a valid regular expression/);
    expect(header).not.toContain('unknown matcher');
  });

  test('a misspelt top-level key is named: unknown key step', async () => {
    const reason = await reasonOf(
      'misspelt.yaml',
      'name: x\nstep:\n  - request: {method: GET, path: /ping}\n',
    );
    expect(reason).toBe('the file: unknown key step');
  });

  test('{{c.nope}}: c has no field nope', () => {
    const vars = new Map<string, unknown>([['c', { id: 'x', a: { b: 1 } }]]);
    expect(() => substitute('{{c.nope}}', vars)).toThrow('{{c.nope}}: c has no field nope');
    expect(() => substitute('{{c.a.z}}', vars)).toThrow('{{c.a.z}}: c.a has no field z');
  });

  test('a server that never answers: cannot reach <the URL given, with its path>: no answer within', async () => {
    const silent: HttpServer = createServer(() => {
      // never answers
    });
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const { port } = silent.address() as AddressInfo;
    const before = limits.timeoutMs;
    limits.timeoutMs = 1000;
    try {
      const given = `http://127.0.0.1:${port}/v1`;
      await expect(hasControlApi(`http://127.0.0.1:${port}`, given)).rejects.toThrow(
        `cannot reach ${given}: no answer within 1 s`,
      );
    } finally {
      limits.timeoutMs = before;
      silent.closeAllConnections();
      await new Promise((done) => silent.close(done));
    }
  });
});

test('a run that matched nothing leaves no 0-byte --junit file (nor the folders made for it)', async () => {
  const file = join(dir, 'new', 'report.xml');
  const run = await runSvc(['scenario', 'run', ONE, '--filter', 'zzz-nothing', '--junit', file]);
  expect(run.code).toBe(2);
  expect(existsSync(file)).toBe(false);
  expect(existsSync(join(dir, 'new'))).toBe(false);
});
