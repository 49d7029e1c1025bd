import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup, http, runSvc, startServe, tempDir } from '../support/spawn';

// Issue 37's team trial: two scenario suites run at once against one shared svc, each in its own
// workspace with its control token, each moving its workspace's clock 40 days (an invoice goes
// overdue, a retry schedule plays out). Each sees exactly its own events; neither sees the
// other's time move, and the server's clock stays where it was.

afterEach(cleanup);

const TOKEN = 'two-suites-admin-token';
const SUITE = join(import.meta.dirname, 'fixtures', 'forty-days.yaml');
const DAY_MS = 24 * 3600 * 1000;

/** A control API call with the admin token. */
const adminCall = (url: string, path: string, method = 'GET', body?: unknown) =>
  http(`${url}/__admin${path}`, { method, key: TOKEN, body });

/** A /v1 call with `key`. */
const api = (url: string, key: string, method: string, path: string, body?: unknown) =>
  http(`${url}/v1${path}`, { method, key, body });

/**
 * A third workspace nobody moves, set up as a suite sets up its own: an invoice due today, sent,
 * and a subscription whose receiver is down with its first try made.
 */
async function bystander(url: string, key: string) {
  const hook = await api(url, key, 'POST', '/webhooks', {
    event: 'job.created',
    target_url: 'http://127.0.0.1:9/down',
  });
  const job = await api(url, key, 'POST', '/jobs', {
    name: 'Bystander',
    address: '1 Main St',
    city: 'Dallas',
    state: 'TX',
    postal_code: '75201',
  });
  const invoice = await api(url, key, 'POST', '/invoices', {
    job_id: job.body.id,
    line_items: [{ name: 'Gutters', quantity: 1, unit_price: 100 }],
  });
  const id = invoice.body.id as string;
  await api(url, key, 'PATCH', `/invoices/${id}`, { due_date: invoice.body.issue_date });
  expect((await api(url, key, 'POST', `/invoices/${id}/mark_sent`)).body.status).toBe('sent');
  return { hookId: hook.body.id as string, invoiceId: id };
}

describe('two CI suites on one shared svc', () => {
  test('each moves its own workspace 40 days and sees its own events alone; a third is untouched', async () => {
    const data = join(await tempDir(), 'data.json');
    // The runners' receivers are on 127.0.0.1.
    const server = await startServe(data, ['--admin-token', TOKEN, '--allow-local-targets']);
    const make = async () => {
      const made = await adminCall(server.url, '/workspaces', 'POST', { profile: 'empty' });
      expect(made.status).toBe(201);
      return made.body as { id: string; keys: { write: { key: string } }; control_token: string };
    };
    const [a, b, c] = [await make(), await make(), await make()];
    const still = await bystander(server.url, c.keys.write.key);
    const serverBefore = Date.parse((await adminCall(server.url, '/clock')).body.now);
    const suite = (ws: typeof a) =>
      runSvc(
        [
          'scenario',
          'run',
          SUITE,
          '--base-url',
          server.url,
          '--key',
          ws.keys.write.key,
          '--control-token',
          ws.control_token,
        ],
        { timeoutMs: 90_000 },
      );
    const runs = await Promise.all([suite(a), suite(b)]);
    for (const run of runs) {
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/PASS/);
    }

    const serverAfter = Date.parse((await adminCall(server.url, '/clock')).body.now);
    expect(serverAfter - serverBefore, "the server's clock did not move").toBeLessThan(90_000);
    for (const ws of [a, b]) {
      const now = Date.parse((await adminCall(server.url, `/workspaces/${ws.id}/clock`)).body.now);
      const lead = now - serverAfter;
      // Its own 40 days, not the other's too (80).
      expect(lead).toBeGreaterThan(40 * DAY_MS - 60_000);
      expect(lead).toBeLessThan(40 * DAY_MS + 60_000);
    }

    // The bystander: its invoice is not overdue, its receiver was tried once and is waiting for
    // its first retry a minute later, and its clock is the server's.
    const theirs = await api(server.url, c.keys.write.key, 'GET', `/invoices/${still.invoiceId}`);
    expect(theirs.body.status).toBe('sent');
    const log = await adminCall(server.url, `/webhooks/${still.hookId}/deliveries`);
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({ state: 'retrying' });
    expect(log.body.data[0].attempts).toHaveLength(1);
    const cNow = Date.parse((await adminCall(server.url, `/workspaces/${c.id}/clock`)).body.now);
    expect(Math.abs(cNow - serverAfter)).toBeLessThan(60_000);
    await server.stop();
  }, 150_000);
});
