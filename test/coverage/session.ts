// Shared by the coverage tests: svc in-process, read through the same code the CLI reads a
// server with (src/clients/coverage/source.ts), and a known session of calls and deliveries.
import { expect } from 'vitest';
import { type Coverage, computeCoverage, type Get, readTraffic } from '../../src/clients/coverage';
import type { Harness, TestWorkspace } from '../support/harness';
import type { Receiver } from '../support/receiver';
import { advance, hookHarness, receiver } from '../webhooks/setup';

/** Where the in-process app is "served": any origin does for app.request. */
export const ORIGIN = 'http://svc.test';

/** GETs answered by the harness's app, as a running svc answers them. */
export const inProcess =
  (h: Harness): Get =>
  async (url) => {
    const res = await h.app.request(url);
    return { status: res.status, body: [await res.text()] };
  };

/** The coverage of `h`'s logs, of one workspace or all. */
export async function coverageOf(h: Harness, workspaceId?: string): Promise<Coverage> {
  return computeCoverage(await readTraffic(ORIGIN, workspaceId, inProcess(h)));
}

/** A call sent as is (no contract check): HEAD, unknown paths, methods the path lacks. */
export async function rawCall(h: Harness, method: string, path: string, key: string) {
  const res = await h.app.request(`/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}` },
  });
  return res.status;
}

export interface Session {
  h: Harness;
  ws: TestWorkspace;
  other: TestWorkspace;
  rx: Receiver;
  contactHook: string;
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/**
 * The known session, in workspace `ws`: a subscription to contact.created (its receiver answers
 * 500 once, then 200) and one to job.created; POST /contacts x3 (201, 201, 400 invalid_request),
 * GET /contacts/{id} x2 (200, 404 not_found), GET /jobs/search (200), HEAD /contacts (200),
 * GET /v1/nope (404) and PUT /v1/contacts (405); the first delivery retried after a minute.
 * In workspace `other`: GET /ping once.
 */
export async function knownSession(): Promise<Session> {
  const h = hookHarness();
  const ws = await h.workspace({ profile: 'empty' });
  const other = await h.workspace({ profile: 'empty' });
  const rx = await receiver((_req, n) => (n === 1 ? 500 : 200));
  const hook = await ws.api.post('/webhooks', { event: 'contact.created', target_url: rx.url });
  expect(hook.status).toBe(201);
  const jobs = await ws.api.post('/webhooks', { event: 'job.created', target_url: rx.url });
  expect(jobs.status).toBe(201);
  const idem = { headers: { 'Idempotency-Key': 'ada-1' } };
  const ada = await ws.api.post('/contacts', { first_name: 'Ada' }, idem);
  expect(ada.status).toBe(201);
  expect((await ws.api.post('/contacts', { first_name: 'Bob' })).status).toBe(201);
  expect((await ws.api.post('/contacts', {}, { invalid: true })).status).toBe(400);
  expect((await ws.api.get(`/contacts/${ada.body.id}`)).status).toBe(200);
  expect((await ws.api.get(`/contacts/${UNKNOWN}`)).status).toBe(404);
  expect((await ws.api.get('/jobs/search', { query: { q: 'roof' } })).status).toBe(200);
  expect(await rawCall(h, 'HEAD', '/contacts', ws.keys.write.key)).toBe(200);
  expect(await rawCall(h, 'GET', '/nope', ws.keys.write.key)).toBe(404);
  expect(await rawCall(h, 'PUT', '/contacts', ws.keys.write.key)).toBe(405);
  expect((await other.api.get('/ping')).status).toBe(200);
  await advance(h, 1); // past the coalescing window: both deliveries go, the first fails
  await advance(h, 60); // its retry, a minute on
  expect(rx.received).toHaveLength(3);
  return { h, ws, other, rx, contactHook: hook.body.id };
}
