// decisions.md, Record URLs: a record's `url` points at the server's own address in GET and in a
// webhook delivery alike, however the caller reached the server (spec, Delivery body: the record's
// fields "exactly as GET returns them"). Only 127.0.0.1 is contacted; the Host header varies.
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { Receiver } from '../support/receiver';
import { cleanup, http, startServe, tempDir } from '../support/spawn';

let rx: Receiver | undefined;
afterEach(async () => {
  await rx?.close();
  rx = undefined;
  await cleanup();
});

/** GET over 127.0.0.1 while the Host header names another spelling of the server. */
function getWithHost(url: string, host: string, key: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: { Host: host, Authorization: `Bearer ${key}` }, timeout: 10_000 },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('url and portal_url in GET equal those of the delivery, whatever Host the caller used', async () => {
  rx = await Receiver.start();
  const server = await startServe(join(await tempDir(), 'data.json'), [
    '--no-seed',
    '--allow-local-targets',
    '--webhook-coalesce-ms',
    '0',
  ]);
  const made = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  const key: string = made.body.keys.write.key;
  const hook = await http(`${server.url}/v1/webhooks`, {
    method: 'POST',
    key,
    body: { event: 'job.created', target_url: rx.url },
  });
  expect(hook.status).toBe(201);
  const job = await http(`${server.url}/v1/jobs`, {
    method: 'POST',
    key,
    body: { name: 'Roof', address: '1 Main St' },
  });
  expect(job.status).toBe(201);
  const [delivered] = await rx.waitFor(1);

  const port = new URL(server.url).port;
  const seen = await getWithHost(`${server.url}/v1/jobs/${job.body.id}`, `localhost:${port}`, key);
  expect(seen.url).toBe(`${server.url}/jobs/${job.body.id}`);
  expect(seen.url).toBe(delivered?.json.url);
  expect(seen.portal_url).toBe(delivered?.json.portal_url);
});

test('the request log of a real server holds each answer exactly as it was sent', async () => {
  const server = await startServe(join(await tempDir(), 'data.json'), ['--no-seed']);
  const made = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  const key: string = made.body.keys.write.key;
  const job = await http(`${server.url}/v1/jobs`, {
    method: 'POST',
    key,
    body: { name: 'Roof', address: '1 Main St' },
  });
  const seen = await http(`${server.url}/v1/jobs/${job.body.id}`, { key });
  const missing = await http(`${server.url}/v1/jobs/${made.body.id}`, { key });
  expect(missing.status).toBe(404);

  const log = await http(`${server.url}/__admin/requests?workspace_id=${made.body.id}`);
  const [notFound, got, created] = log.body.data;
  expect(JSON.parse(created.response_body)).toEqual(job.body);
  expect(JSON.parse(created.request_body)).toEqual({ name: 'Roof', address: '1 Main St' });
  expect(JSON.parse(got.response_body)).toEqual(seen.body);
  expect(JSON.parse(notFound.response_body)).toEqual(missing.body);
  expect(got.response_body_truncated).toBe(false);
});
