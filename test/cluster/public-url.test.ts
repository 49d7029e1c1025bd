import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { bannerKeys, cleanup, http, runSvc, startServe, tempDir } from '../support/spawn';

// Issue 40: nodes behind a load balancer point records' URLs at it (SVC_PUBLIC_URL), in GET and
// in deliveries alike, whichever node answers.

afterEach(cleanup);

describe('SVC_PUBLIC_URL', () => {
  test("records' URLs point at the address it names, not the node's", async () => {
    const server = await startServe(join(await tempDir(), 'data.json'), [], {
      env: { SVC_PUBLIC_URL: 'https://svc.example.test' },
    });
    const key = bannerKeys(server.stdout())?.write ?? '';
    const made = await http(`${server.url}/v1/jobs`, {
      method: 'POST',
      key,
      body: { name: 'Behind a balancer', address: '1 Main St' },
    });
    expect(made.status).toBe(201);
    expect(made.body.url).toBe(`https://svc.example.test/jobs/${made.body.id}`);
    expect(made.body.portal_url).toMatch(/^https:\/\/svc\.example\.test\/portal\//);
  });

  test('an address that is not http(s) with no path is refused: exit 1, one line naming it', async () => {
    const run = await runSvc(['serve', '--port', '0', '--data', join(await tempDir(), 'd.json')], {
      env: { SVC_PUBLIC_URL: 'ftp://svc.example.test/x' },
      timeoutMs: 15_000,
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      'svc: SVC_PUBLIC_URL must be an http(s) address with no path: not ftp://svc.example.test/x',
    );
  });
});
