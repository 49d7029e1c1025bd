// A support case end to end with real processes (issue 19, Done when): `svc bundle` writes a
// customer's workspace from a running svc, `svc serve --data BUNDLE` brings it back (state, clock,
// faults, request log, fresh keys), and `svc replay --from BUNDLE` replays its request log.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, workspace } from '../replay/session';
import { cleanup, http, runSvc, type Server, startServe, tempDir } from '../support/spawn';

let customer: Server;
let dir: string;
let file: string;
let ws: Awaited<ReturnType<typeof workspace>>;
let contactId: string;
let clockThen: string;
let receiver: HttpServer;
let received = 0;
let faultId: string;
let keyPrefix: string;
let hookId = '';

/** The customer's receiver: it answers 500, so a delivery is left retrying in the bundle. */
async function startReceiver(): Promise<string> {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}

async function until(what: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) {
      throw new Error('timed out waiting');
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  dir = await tempDir();
  customer = await startServe(join(dir, 'customer.json'), ['--no-seed', '--allow-local-targets']);
  ws = await workspace(customer.url);
  const target = await startReceiver();
  const hook = await call('POST', `${customer.url}/v1/webhooks`, ws.key, {
    target_url: target,
    event: 'contact.created',
  });
  hookId = hook.body.id;
  const made = await call('POST', `${customer.url}/v1/contacts`, ws.key, { first_name: 'Dana' });
  contactId = made.body.id;
  await call('PATCH', `${customer.url}/v1/contacts/${contactId}`, ws.key, { last_name: 'Reyes' });
  await call('POST', `${customer.url}/v1/jobs`, ws.key, { name: 'Roof', address: '1 Elm St' });
  await until(() => received === 1);
  keyPrefix = (await http(`${customer.url}/__admin/workspaces/${ws.id}`)).body.keys[0].prefix;
  const fault = await http(`${customer.url}/__admin/faults`, {
    method: 'POST',
    body: { match: { workspace_id: ws.id, path: '/v1/tasks' }, action: { status: 503 } },
  });
  faultId = fault.body.id;
  clockThen = (
    await http(`${customer.url}/__admin/clock`, {
      method: 'POST',
      body: { advance_seconds: 86400 },
    })
  ).body.now;
  file = join(dir, 'case.json');
}, 30_000);

afterAll(async () => {
  receiver?.close();
  await cleanup();
});

describe('svc bundle, then svc serve --data BUNDLE', () => {
  test('svc bundle writes the case to --out and says what it holds', async () => {
    const run = await runSvc([
      'bundle',
      '--from',
      customer.url,
      '--workspace',
      ws.id,
      '--out',
      file,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /wrote .*case\.json: workspace .* 4 requests, 1 deliveries, 1 faults/,
    );
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(ws.key);
    const bundle = JSON.parse(text);
    expect(bundle.format).toBe('svc-bundle');
    // a key's 4-character prefix is no secret: it is kept, not swapped for a whole new key
    expect(bundle.snapshot.keys.map((k: { prefix: string }) => k.prefix)).toContain(keyPrefix);
  });

  test('served back: the same records under fresh keys, the clock, the faults, the request log', async () => {
    const before = await stat(file);
    // The customer's own svc stops retrying: what reaches the receiver from now on is the bundle's.
    expect((await call('DELETE', `${customer.url}/v1/webhooks/${hookId}`, ws.key)).status).toBe(
      200,
    );
    const seen = received;
    const served = await startServe(file);
    try {
      expect(served.stdout()).toContain('a support bundle');
      const key = /^ {4}write key {2}(\S+) {2}\(/m.exec(served.stdout())?.[1] ?? '';
      expect(key).toMatch(/^svc_live_/);
      expect(key).not.toBe(ws.key);
      const contact = await call('GET', `${served.url}/v1/contacts/${contactId}`, key);
      expect(contact.status).toBe(200);
      expect(contact.body).toMatchObject({ first_name: 'Dana', last_name: 'Reyes' });
      expect((await call('GET', `${served.url}/v1/ping`, ws.key)).status).toBe(401);
      const now = Date.parse((await http(`${served.url}/__admin/clock`)).body.now);
      expect(now).toBeGreaterThanOrEqual(Date.parse(clockThen));
      expect(now - Date.parse(clockThen)).toBeLessThan(60_000);
      const faults = (await http(`${served.url}/__admin/faults`)).body.data;
      expect(faults.map((f: { id: string }) => f.id)).toEqual([faultId]);
      expect((await call('GET', `${served.url}/v1/tasks`, key)).status).toBe(503);
      const log = (await http(`${served.url}/__admin/requests?workspace_id=${ws.id}&limit=50`)).body
        .data;
      const paths = log.map((r: { method: string; path: string }) => `${r.method} ${r.path}`);
      expect(paths).toEqual(
        expect.arrayContaining([
          'POST /v1/contacts',
          `PATCH /v1/contacts/${contactId}`,
          'POST /v1/jobs',
        ]),
      );
      // The bundle's retrying delivery is the customer's receiver's: held, never sent from here.
      await http(`${served.url}/__admin/clock`, {
        method: 'POST',
        body: { advance_seconds: 3600 },
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(received).toBe(seen);
    } finally {
      await served.stop();
    }
    expect(served.stdout()).toContain('writes discarded (a bundle is served from memory)');
    const after = await stat(file);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  test('svc replay --from BUNDLE replays its request log to another svc', async () => {
    const fresh = await startServe(join(dir, 'fresh.json'), ['--no-seed']);
    try {
      const target = await workspace(fresh.url);
      const run = await runSvc([
        'replay',
        '--from',
        file,
        '--workspace',
        ws.id,
        '--to',
        fresh.url,
        '--key',
        target.key,
        '--json',
      ]);
      expect(run.code).toBe(0);
      const contacts = await call('GET', `${fresh.url}/v1/contacts`, target.key);
      expect(
        contacts.body.data.map(
          (c: { first_name: string; last_name: string }) => `${c.first_name} ${c.last_name}`,
        ),
      ).toEqual(['Dana Reyes']);
    } finally {
      await fresh.stop();
    }
  });
});

describe('svc serve --data BUNDLE', () => {
  test('a bundle older than now is served on its own clock, not real time', async () => {
    const old = join(dir, 'old.json');
    const bundle = JSON.parse(await readFile(file, 'utf8'));
    const then = Date.now() - 10 * 86_400_000;
    bundle.clock.now = new Date(then).toISOString();
    await writeFile(old, JSON.stringify(bundle));
    const served = await startServe(old);
    try {
      const now = Date.parse((await http(`${served.url}/__admin/clock`)).body.now);
      expect(now).toBeGreaterThanOrEqual(then);
      expect(now - then).toBeLessThan(60_000);
    } finally {
      await served.stop();
    }
  });

  test.each([
    [
      'two jobs with one id',
      (b: Bundle) => {
        b.snapshot.collections.contacts.push(b.snapshot.collections.contacts[0]);
      },
      '(snapshot.collections.contacts[1].id)',
    ],
    [
      'a job the API could not show',
      (b: Bundle) => {
        b.snapshot.collections.jobs[0].name = 42;
      },
      '(snapshot.collections.jobs[0].name)',
    ],
    [
      'two faults with one id',
      (b: Bundle) => {
        b.faults.push(b.faults[0]);
      },
      '(faults[1].id)',
    ],
    [
      'a fault the control API would refuse',
      (b: Bundle) => {
        b.faults[0].action = { status: 418 };
      },
      '(faults[0].action.status)',
    ],
  ])('a bundle with %s stops svc with exit 1 naming the field', async (_what, edit, field) => {
    const bad = join(dir, 'edited.json');
    const bundle = JSON.parse(await readFile(file, 'utf8'));
    edit(bundle);
    await writeFile(bad, JSON.stringify(bundle));
    const run = await runSvc(['serve', '--port', '0', '--data', bad]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(field);
  });
});

// biome-ignore lint/suspicious/noExplicitAny: a bundle read back from its file, edited by a test
type Bundle = any;

describe('svc bundle usage', () => {
  test('a missing flag is exit 2 with one line', async () => {
    const run = await runSvc(['bundle', '--from', customer.url, '--workspace', ws.id]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual(['error: --out is required']);
  });

  test('a workspace the svc does not have is exit 2, and nothing is written', async () => {
    const out = join(dir, 'none.json');
    const run = await runSvc([
      'bundle',
      '--from',
      customer.url,
      '--workspace',
      '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11',
      '--out',
      out,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('has no workspace');
    await expect(stat(out)).rejects.toThrow();
  });

  test('an address nothing answers is exit 1', async () => {
    const run = await runSvc([
      'bundle',
      '--from',
      'http://127.0.0.1:9',
      '--workspace',
      ws.id,
      '--out',
      join(dir, 'x.json'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cannot reach http://127.0.0.1:9');
  });

  test('svc serve --data on a damaged bundle exits 1 naming the field', async () => {
    const bad = join(dir, 'bad.json');
    const text = (await readFile(file, 'utf8')).replace('"version": 1', '"version": 9');
    await writeFile(bad, text);
    const run = await runSvc(['serve', '--port', '0', '--data', bad]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is not a svc bundle: version');
  });
});
