import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bannerKeys, cleanup, http, type Server, startServe, tempDir } from '../support/spawn';

// decisions.md, Faults: a drop and a delay as a real client sees them, against `svc serve`.

let server: Server;
let key: string;

beforeAll(async () => {
  server = await startServe(join(await tempDir(), 'data.json'));
  const keys = bannerKeys(server.stdout());
  if (!keys) {
    throw new Error(`no demo keys in the banner: ${server.stdout()}`);
  }
  key = keys.write;
}, 20_000);

afterAll(async () => {
  await server.stop();
  await cleanup();
});

/** GET with node:http: the status, or the error the socket ended with. */
function get(path: string): Promise<{ status?: number; error?: NodeJS.ErrnoException }> {
  return new Promise((resolve) => {
    const req = request(`${server.url}${path}`, {
      headers: { Authorization: `Bearer ${key}` },
      agent: false,
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error }));
    req.end();
  });
}

const addFault = (body: unknown) => http(`${server.url}/__admin/faults`, { method: 'POST', body });

describe('svc serve', () => {
  test('drop: the client sees the connection reset with no answer; the log says so', async () => {
    const f = await addFault({ match: { path: '/jobs' }, action: { drop: true }, times: 1 });
    expect(f.status).toBe(201);
    const dropped = await get('/v1/jobs?limit=1');
    expect(dropped.status).toBeUndefined();
    expect(dropped.error?.code).toBe('ECONNRESET');
    await expect(
      fetch(`${server.url}/v1/ping`, { headers: { Authorization: `Bearer ${key}` } }).then(
        (r) => r.status,
      ),
    ).resolves.toBe(200);
    expect((await get('/v1/jobs?limit=1')).status).toBe(200); // spent after one
    await new Promise((r) => setTimeout(r, 50));
    const log = await http(`${server.url}/__admin/requests?path=/v1/jobs&limit=5`);
    const entry = log.body.data.find((e: { fault?: string }) => e.fault === f.body.id);
    expect(entry).toMatchObject({ status: 0, method: 'GET', path: '/v1/jobs' });
    expect(server.stderr()).not.toMatch(/error|failed/i);
  });

  test('a fetch of a dropped call fails as a network error', async () => {
    await addFault({ match: { path: '/v1/users' }, action: { drop: true }, times: 1 });
    const err = await fetch(`${server.url}/v1/users`, {
      headers: { Authorization: `Bearer ${key}` },
    }).then(
      () => undefined,
      (e: Error & { cause?: { code?: string } }) => e,
    );
    expect(err?.message).toBe('fetch failed');
    expect(err?.cause?.code).toBe('ECONNRESET');
  });

  test('delay: the real answer comes after the delay', async () => {
    await addFault({ match: { path: '/pipelines' }, action: { delay_ms: 300 }, times: 1 });
    const started = Date.now();
    expect((await get('/v1/pipelines')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const again = Date.now();
    expect((await get('/v1/pipelines')).status).toBe(200);
    expect(Date.now() - again).toBeLessThan(290);
  });
});
