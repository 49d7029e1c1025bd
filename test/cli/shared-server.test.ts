import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { BIN, cleanup, http, runSvc, startServe, tempDir } from '../support/spawn';

// Issue 37: one svc for a team. A server reachable from the network must have an admin token;
// `auto` makes one and prints it once; a scenario suite runs against it with its workspace's
// control token, moving its workspace's clock alone.

afterEach(cleanup);

const ROOT = join(BIN, '..', '..');
const TOKEN = 'a-team-admin-token';

/** A control API call with the admin token. */
const adminCall = (url: string, path: string, method = 'GET', body?: unknown) =>
  http(`${url}/__admin${path}`, { method, key: TOKEN, body });

describe('svc serve on a shared address', () => {
  test('--host 0.0.0.0 without a token refuses to start: exit 2, one line saying why', async () => {
    const data = join(await tempDir(), 'data.json');
    const run = await runSvc(['serve', '--host', '0.0.0.0', '--port', '0', '--data', data], {
      env: { SVC_ADMIN_TOKEN: '' }, // no token from the environment either
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/--admin-token/);
  });

  test('--admin-token auto makes a token, prints it once, and the control API asks for it', async () => {
    const data = join(await tempDir(), 'data.json');
    const server = await startServe(data, ['--admin-token', 'auto']);
    const printed = /Authorization: Bearer (svc_adm_\S+)/.exec(server.stdout())?.[1];
    expect(printed).toBeDefined();
    expect((await http(`${server.url}/__admin/clock`)).status).toBe(401);
    const res = await fetch(`${server.url}/__admin/clock`, {
      headers: { Authorization: `Bearer ${printed}` },
    });
    expect(res.status).toBe(200);
    expect(server.stdout().split(printed as string)).toHaveLength(2); // printed once
    await server.stop();
  });

  test('SVC_ADMIN_TOKEN is the token when no flag gives one', async () => {
    const data = join(await tempDir(), 'data.json');
    const server = await startServe(data, [], { env: { SVC_ADMIN_TOKEN: TOKEN } });
    expect((await http(`${server.url}/__admin/clock`)).status).toBe(401);
    expect((await adminCall(server.url, '/clock')).status).toBe(200);
    expect(server.stdout()).not.toContain(TOKEN);
    await server.stop();
  });

  test('a scenario suite runs with its control token and moves its own clock alone', async () => {
    const data = join(await tempDir(), 'data.json');
    // The runner's receiver is on 127.0.0.1.
    const server = await startServe(data, ['--admin-token', TOKEN, '--allow-local-targets']);
    const made = await adminCall(server.url, '/workspaces', 'POST', { profile: 'empty' });
    expect(made.status).toBe(201);
    const serverBefore = Date.parse((await adminCall(server.url, '/clock')).body.now);
    const run = await runSvc(
      [
        'scenario',
        'run',
        join(ROOT, 'scenarios/events/invoice.overdue.yaml'),
        '--base-url',
        server.url,
        '--key',
        made.body.keys.write.key,
        '--control-token',
        made.body.control_token,
      ],
      { timeoutMs: 60_000 },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/PASS/);
    const serverAfter = Date.parse((await adminCall(server.url, '/clock')).body.now);
    expect(serverAfter - serverBefore).toBeLessThan(60_000);
    const own = await adminCall(server.url, `/workspaces/${made.body.id}/clock`);
    expect(Date.parse(own.body.now) - serverAfter).toBeGreaterThan(24 * 3600 * 1000);
    await server.stop();
  }, 90_000);

  test("a control token of another workspace than --key's exits 2 before any step runs", async () => {
    const data = join(await tempDir(), 'data.json');
    const server = await startServe(data, ['--admin-token', TOKEN, '--allow-local-targets']);
    const mine = await adminCall(server.url, '/workspaces', 'POST', {});
    const theirs = await adminCall(server.url, '/workspaces', 'POST', {});
    const run = await runSvc([
      'scenario',
      'run',
      join(ROOT, 'scenarios/events/invoice.overdue.yaml'),
      '--base-url',
      server.url,
      '--key',
      mine.body.keys.write.key,
      '--control-token',
      theirs.body.control_token,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--control-token is not the control token of --key's workspace/);
    const jobs = await fetch(`${server.url}/v1/jobs`, {
      headers: { Authorization: `Bearer ${mine.body.keys.write.key}` },
    });
    expect(((await jobs.json()) as { data: unknown[] }).data).toEqual([]);
    await server.stop();
  });

  test('a scenario run against a shared svc without a token exits 2 saying what to give', async () => {
    const data = join(await tempDir(), 'data.json');
    const server = await startServe(data, ['--admin-token', TOKEN]);
    const run = await runSvc([
      'scenario',
      'run',
      join(ROOT, 'scenarios/events/invoice.overdue.yaml'),
      '--base-url',
      server.url,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--control-token/);
    await server.stop();
  });
});
