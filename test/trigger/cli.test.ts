import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifySignature } from '../../src/clients/listen/signature';
import { type Inbox, type Receiver, startReceiver } from '../../src/clients/scenario';
import { cleanup, http, runSvc, type Server, startServe, tempDir } from '../support/spawn';

// `svc trigger` as a real process against a spawned `svc serve --allow-local-targets`.

let server: Server;
let receiver: Receiver;
let inbox: Inbox;
let secret: string;
let key: string;

beforeAll(async () => {
  const dir = await tempDir();
  server = await startServe(join(dir, 'data.json'), ['--allow-local-targets', '--no-seed']);
  const made = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  key = made.body.keys.write.key;
  receiver = await startReceiver();
  inbox = receiver.open();
  const hook = await http(`${server.url}/v1/webhooks`, {
    method: 'POST',
    key,
    body: { event: 'job.created', target_url: inbox.url },
  });
  secret = hook.body.secret;
});
afterAll(async () => {
  await receiver?.close();
  await cleanup();
});

describe('svc trigger', () => {
  test('job.created with --override: what it made, the delivery, and the value delivered', async () => {
    const run = await runSvc([
      'trigger',
      'job.created',
      '--server',
      server.url,
      '--key',
      key,
      '--override',
      'name=Override Roof',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}POST \/jobs -> 201 job [0-9a-f-]{36}$/m);
    expect(run.stdout).toMatch(
      /^deliveries of job\.created:\n {2}[0-9a-f-]{36} to [0-9a-f-]{36} http:\/\/127\.0\.0\.1:\d+\/inbox-\w+: succeeded, answered 200$/m,
    );
    const got = await inbox.waitFor(
      () => inbox.received.find((r) => (r.body as { name?: string }).name === 'Override Roof'),
      3000,
    );
    expect(got?.event).toBe('job.created');
    const verdict = verifySignature({
      header: got?.headers['x-service-signature'],
      body: got?.raw ?? Buffer.alloc(0),
      secrets: [secret],
      nowSeconds: Math.floor(Date.now() / 1000),
      toleranceSeconds: 300,
    });
    expect(verdict).toBe('ok');
  });

  test('without --key or --workspace it acts in the first workspace; nothing subscribed is said', async () => {
    const run = await runSvc(['trigger', 'contact.created', '--server', server.url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('no subscription in this workspace receives contact.created');
  });

  test('an unknown event exits 2 listing the events', async () => {
    const run = await runSvc(['trigger', 'job.exploded', '--server', server.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^error: unknown event job\.exploded; the events are: job\.created, .*storm_list\.ready\n$/,
    );
  });

  test('a server that is not svc exits 2 with one line', async () => {
    const run = await runSvc(['trigger', 'job.created', '--server', inbox.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: http:\/\/127\.0\.0\.1:\d+ is not a svc \(no control API/);
  });

  test('bad usage exits 2: --key with --workspace, an --override without =', async () => {
    const both = await runSvc([
      'trigger',
      'job.created',
      '--server',
      server.url,
      '--key',
      key,
      '--workspace',
      'x',
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('error: give --workspace or --key, not both\n');
    const bad = await runSvc(['trigger', 'job.created', '--override', 'name']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--override takes field=value');
  });
});
