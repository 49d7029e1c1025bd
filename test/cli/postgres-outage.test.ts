import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { pgAvailable } from '../support/pg';
import { bannerKeys, cleanup, http, runSvc, startServe, tempDir } from '../support/spawn';

// Issue 39: the database goes away under a serving svc and comes back. A write it could not
// commit is answered 500 `server_error` with Retry-After and is not kept; every call meanwhile is
// refused alike; once the database answers again svc serves again by itself, without a restart,
// and holds nothing the database does not. A cluster of this file's own: it is stopped on purpose.

const CLUSTER = join(import.meta.dirname, '..', '..', '.ci', 'pg-cluster');
const cluster = (...args: string[]) => execFileSync(CLUSTER, args, { encoding: 'utf8' }).trim();

afterEach(cleanup);

const JOB = {
  name: 'Outage',
  address: '1 Main St',
  city: 'Dallas',
  state: 'TX',
  postal_code: '75201',
};

describe.skipIf(!pgAvailable)('svc on PostgreSQL when the database goes away', () => {
  let url = '';
  let dir = '';
  beforeAll(() => {
    [url, dir] = cluster('start').split(' ') as [string, string];
  });
  afterAll(() => {
    if (dir !== '') {
      cluster('stop', dir);
    }
  });

  test('500 with Retry-After while it is gone, nothing half-kept, and back by itself', async () => {
    const server = await startServe(join(await tempDir(), 'node.json'), ['--store', url]);
    const key = bannerKeys(server.stdout())?.write ?? '';
    const before = await http(`${server.url}/v1/jobs`, { method: 'POST', key, body: JOB });
    expect(before.status).toBe(201);

    cluster('halt', dir);
    const lost = await http(`${server.url}/v1/jobs`, {
      method: 'POST',
      key,
      body: { ...JOB, name: 'Lost' },
    });
    expect(lost.status).toBe(500);
    expect(lost.body.error.code).toBe('server_error');
    expect(lost.headers.get('retry-after')).toBe('1');
    const meanwhile = await http(`${server.url}/v1/jobs?limit=100`, { key });
    expect(meanwhile.status).toBe(500);
    expect(meanwhile.headers.get('retry-after')).toBe('1');
    const probe = await http(`${server.url}/__health`);
    expect([probe.status, probe.body]).toEqual([503, { ok: false }]);

    cluster('resume', dir);
    let after = await http(`${server.url}/v1/jobs?limit=100`, { key });
    for (let i = 0; i < 100 && after.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await http(`${server.url}/v1/jobs?limit=100`, { key });
    }
    expect(after.status).toBe(200);
    const healthy = await http(`${server.url}/__health`);
    expect([healthy.status, healthy.body]).toEqual([200, { ok: true }]);
    // The serving lock went with the restarted database's connections; it is held again, so a
    // seed, which would empty the schema under it, is refused.
    const seed = await runSvc(['seed', '--store', url], { timeoutMs: 30_000 });
    expect(seed.code).toBe(1);
    expect(seed.stderr).toMatch(/a svc is serving schema svc of that database: stop it first/);
    const names = after.body.data.map((j: { name: string }) => j.name);
    expect(names).toContain('Outage');
    expect(names).not.toContain('Lost');
    const again = await http(`${server.url}/v1/jobs`, {
      method: 'POST',
      key,
      body: { ...JOB, name: 'Again' },
    });
    expect(again.status).toBe(201);
    const sql = new pg.Client({ connectionString: url });
    await sql.connect();
    const rows = await sql.query(
      "SELECT data->>'name' AS name FROM svc.records WHERE coll = 'jobs' AND data->>'name' IN ('Outage', 'Lost', 'Again') ORDER BY 1",
    );
    await sql.end();
    expect(rows.rows.map((r) => r.name)).toEqual(['Again', 'Outage']);
    await server.stop();
  }, 60_000);

  test('with no write under way: /__health turns 503 once the database is gone, the schema is held again when it is back', async () => {
    const server = await startServe(join(await tempDir(), 'quiet.json'), [
      '--store',
      url,
      '--store-schema',
      'quiet',
    ]);
    const health = async () => (await http(`${server.url}/__health`)).status;
    expect(await health()).toBe(200);
    cluster('halt', dir);
    let status = await health();
    for (let i = 0; i < 50 && status !== 503; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = await health();
    }
    expect(status).toBe(503);
    cluster('resume', dir);
    for (let i = 0; i < 100 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = await health();
    }
    expect(status).toBe(200);
    const seed = await runSvc(['seed', '--store', url, '--store-schema', 'quiet'], {
      timeoutMs: 30_000,
    });
    expect(seed.code).toBe(1);
    expect(seed.stderr).toMatch(/a svc is serving schema quiet of that database: stop it first/);
    await server.stop();
  }, 60_000);
});
