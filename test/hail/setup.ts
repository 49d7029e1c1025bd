// Shared by the hail history tests: one app per test file (no rate limit unless a test makes its
// own), a workspace of the test's own, the clock put on a known day, and the requests repeated.
import { expect } from 'vitest';
import { expectError } from '../support/expect';
import { type Harness, harness, type Json, type TestWorkspace } from '../support/harness';

export { expectError };

/** The day the tests' clock stands on: noon in US Central time (18:00 UTC) of 15 June 2030. */
export const TODAY = '2030-06-15';
const TODAY_NOON = `${TODAY}T18:00:00.000Z`;

/** Oklahoma City, the middle of the hail belt. */
export const OKC = { latitude: 35.4676, longitude: -97.5164 };
/** A street in Oklahoma City, on one line. */
export const OKC_ADDRESS = '1200 N Walker Ave, Oklahoma City, OK 73103';

let shared: Harness | undefined;

/** The file's app, its clock on TODAY, no rate limit. */
export async function app(): Promise<Harness> {
  if (!shared) {
    shared = harness({ rateLimit: null });
    await onToday(shared);
  }
  return shared;
}

/** Puts an app's clock on TODAY (the clock only moves forward: this holds until 2030). */
export async function onToday(h: Harness): Promise<void> {
  const res = await h.admin.post('/clock', { set: TODAY_NOON });
  expect(res.status, res.text).toBe(200);
}

export async function fresh(): Promise<{ h: Harness; ws: TestWorkspace }> {
  const h = await app();
  return { h, ws: await h.workspace() };
}

/** GET /hail_history that must answer 200; answers the report. */
export async function lookup(
  ws: TestWorkspace,
  query: Record<string, string | number>,
): Promise<Json> {
  const res = await ws.api.get('/hail_history', { query });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
