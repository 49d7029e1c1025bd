import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup, runSvc, type Server, startServe, tempDir } from '../support/spawn';

// Issue 37: on a shared svc (--admin-token) every client that reads or drives the control API
// takes --control-token: svc trigger, replay, coverage and bundle, as svc scenario run does. A
// workspace's control token reaches that workspace alone; without one they say what to give.

afterEach(cleanup);

const TOKEN = 'clients-admin-token';

interface Made {
  id: string;
  keys: { write: { key: string } };
  control_token: string;
}

async function makeWorkspace(server: Server): Promise<Made> {
  const res = await fetch(`${server.url}/__admin/workspaces`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ profile: 'small' }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Made;
}

/** A shared server with two workspaces, each with one call in the request log. */
async function shared() {
  const data = join(await tempDir(), 'data.json');
  const server = await startServe(data, ['--admin-token', TOKEN, '--allow-local-targets']);
  const [a, b] = [await makeWorkspace(server), await makeWorkspace(server)];
  for (const ws of [a, b]) {
    const res = await fetch(`${server.url}/v1/jobs?limit=1`, {
      headers: { Authorization: `Bearer ${ws.keys.write.key}` },
    });
    expect(res.status).toBe(200);
  }
  return { server, a, b };
}

describe('the clients of the control API on a shared svc', () => {
  test('svc trigger acts in the control token’s workspace, and refuses another’s --key first', async () => {
    const { server, a, b } = await shared();
    const own = await runSvc(
      ['trigger', 'job.created', '--server', server.url, '--control-token', a.control_token],
      { timeoutMs: 60_000 },
    );
    expect(own.code, own.stdout + own.stderr).toBe(0);
    expect(own.stdout).toContain(`(workspace ${a.id})`);
    const other = await runSvc(
      [
        'trigger',
        'job.created',
        '--server',
        server.url,
        '--key',
        b.keys.write.key,
        '--control-token',
        a.control_token,
      ],
      { timeoutMs: 60_000 },
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--control-token is not the control token/);
    const none = await runSvc(['trigger', 'job.created', '--server', server.url]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--control-token/);
    const wrong = await runSvc([
      'trigger',
      'job.created',
      '--server',
      server.url,
      '--control-token',
      'svc_ctl_not-this-servers',
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/refused the --control-token given/);
    const elsewhere = await runSvc([
      'trigger',
      'job.created',
      '--server',
      server.url,
      '--workspace',
      b.id,
      '--control-token',
      a.control_token,
    ]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toMatch(/--control-token reaches its own workspace alone, not /);
    await server.stop();
  }, 120_000);

  test("svc replay and svc coverage read the control token's workspace's log alone", async () => {
    const { server, a, b } = await shared();
    const replay = await runSvc(
      [
        'replay',
        '--from',
        server.url,
        '--to',
        server.url,
        '--key',
        a.keys.write.key,
        '--control-token',
        a.control_token,
        '--json',
      ],
      { timeoutMs: 60_000 },
    );
    expect(replay.code, replay.stderr).toBe(0);
    const sent = JSON.parse(replay.stdout) as { requests: { path: string }[] };
    expect(sent.requests).toHaveLength(1); // its own call; b's is not in its log
    const refused = await runSvc([
      'replay',
      '--from',
      server.url,
      '--to',
      server.url,
      '--key',
      a.keys.write.key,
    ]);
    expect(refused.code, 'a credential missing is bad usage').toBe(2);
    expect(refused.stderr).toMatch(/answered 401: .* is a shared svc: give --control-token/);

    const coverage = await runSvc(
      ['coverage', '--from', server.url, '--control-token', a.control_token, '--json'],
      { timeoutMs: 60_000 },
    );
    expect(coverage.code, coverage.stderr).toBe(0);
    expect(JSON.parse(coverage.stdout).workspace_id).toBe(a.id);
    const other = await runSvc([
      'coverage',
      '--from',
      server.url,
      '--workspace',
      b.id,
      '--control-token',
      a.control_token,
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/answered 403 .*--control-token reaches its own workspace alone/);
    await server.stop();
  }, 120_000);

  test("svc bundle writes its own workspace's case with its control token, never another's", async () => {
    const { server, a, b } = await shared();
    const dir = await tempDir();
    const out = join(dir, 'case.json');
    const own = await runSvc([
      'bundle',
      '--from',
      server.url,
      '--workspace',
      a.id,
      '--out',
      out,
      '--control-token',
      a.control_token,
    ]);
    expect(own.code, own.stderr).toBe(0);
    const bundle = JSON.parse(await readFile(out, 'utf8')) as {
      manifest: { workspace_id: string };
    };
    expect(bundle.manifest.workspace_id).toBe(a.id);
    const theirs = await runSvc([
      'bundle',
      '--from',
      server.url,
      '--workspace',
      b.id,
      '--out',
      join(dir, 'theirs.json'),
      '--control-token',
      a.control_token,
    ]);
    expect(theirs.code).toBe(2);
    expect(theirs.stderr).toMatch(/answered 403: --control-token reaches its own workspace alone/);
    await server.stop();
  }, 120_000);
});
