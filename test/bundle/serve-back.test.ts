// A support case end to end with real processes (issue 19, Done when): `svc bundle` writes a
// customer's workspace from a running svc, `svc serve --data BUNDLE` brings it back (state, clock,
// faults, request log, fresh keys), and `svc replay --from BUNDLE` replays its request log.
import { readFile, stat } from 'node:fs/promises';
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

beforeAll(async () => {
  dir = await tempDir();
  customer = await startServe(join(dir, 'customer.json'), ['--no-seed']);
  ws = await workspace(customer.url);
  const made = await call('POST', `${customer.url}/v1/contacts`, ws.key, { first_name: 'Dana' });
  contactId = made.body.id;
  await call('PATCH', `${customer.url}/v1/contacts/${contactId}`, ws.key, { last_name: 'Reyes' });
  await call('POST', `${customer.url}/v1/jobs`, ws.key, { name: 'Roof', address: '1 Elm St' });
  await http(`${customer.url}/__admin/faults`, {
    method: 'POST',
    body: { match: { workspace_id: ws.id, path: '/v1/tasks' }, action: { status: 503 } },
  });
  clockThen = (
    await http(`${customer.url}/__admin/clock`, {
      method: 'POST',
      body: { advance_seconds: 86400 },
    })
  ).body.now;
  file = join(dir, 'case.json');
}, 30_000);

afterAll(cleanup);

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
      /wrote .*case\.json: workspace .* 3 requests, 0 deliveries, 1 faults/,
    );
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(ws.key);
    expect(JSON.parse(text).format).toBe('svc-bundle');
  });

  test('served back: the same records under fresh keys, the clock, the faults, the request log', async () => {
    const before = await stat(file);
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
      expect(faults.map((f: { match: { path: string } }) => f.match.path)).toEqual(['/v1/tasks']);
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
    } finally {
      await served.stop();
    }
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
    await import('node:fs/promises').then((fs) => fs.writeFile(bad, text));
    const run = await runSvc(['serve', '--port', '0', '--data', bad]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is not a svc bundle: version');
  });
});
