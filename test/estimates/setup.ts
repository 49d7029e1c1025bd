// Shared by the estimate tests: one app per test file, a workspace of its own per test (the empty
// profile: its two estimate templates, no jobs), the job an estimate is made for, the two seeded
// templates by name, the control API's homeowner actions and US Central calendar arithmetic done
// here with Intl alone, apart from svc's own code.
import { expect } from 'vitest';
import { ok } from '../support/expect';
import {
  type Harness,
  harness,
  type Json,
  type Reply,
  type TestWorkspace,
} from '../support/harness';

export { ok };

/** A uuid no workspace holds. */
export const UNKNOWN = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';

/** Timestamps as the API writes them. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const DAY_S = 24 * 60 * 60;

/** The seeded templates of every profile (src/resources/estimate-templates/seed.ts, first two). */
export const INSURANCE_TEMPLATE = 'Insurance Roof Replacement - Architectural Shingles';
export const RETAIL_TEMPLATE = 'Retail Roof Replacement - Standard';

export interface Setup {
  h: Harness;
  ws: TestWorkspace;
  /** A job with only the two fields a job needs (`1 Main St`, no homeowner, no carrier). */
  jobId: string;
}

// One app per test file (vitest gives each file its own module graph), no rate limit: building
// an app and its OpenAPI document costs more than the rest of a test. Tests never share a
// workspace, and every date a test expects is worked out from the clock as it is then.
let shared: Harness | undefined;
export const app = (): Harness => {
  shared ??= harness({ rateLimit: null });
  return shared;
};

/** A new empty workspace with one plain job, on the file's app (or `h`). */
export async function setup(h: Harness = app()): Promise<Setup> {
  const ws = await h.workspace();
  const jobId = (await newJob(ws)).id;
  return { h, ws, jobId };
}

/** POST /jobs that must answer 201; answers the job. */
export const newJob = (ws: TestWorkspace, body: Record<string, unknown> = {}): Promise<Json> =>
  ok(ws.api.post('/jobs', { name: 'Roof', address: '1 Main St', ...body }), 201);

/** POST /estimates that must answer 201; answers the estimate. */
export const newEstimate = (
  ws: TestWorkspace,
  jobId: string,
  body: Record<string, unknown> = {},
): Promise<Json> => ok(ws.api.post('/estimates', { job_id: jobId, ...body }), 201);

/** A priced estimate (one line of $1,000): what the lifecycle tests send, view and sign. */
export const pricedEstimate = (
  ws: TestWorkspace,
  jobId: string,
  body: Record<string, unknown> = {},
): Promise<Json> =>
  newEstimate(ws, jobId, { line_items: [{ name: 'Roof', unit_price: 1000 }], ...body });

/** The workspace's template of that name, as GET /estimate_templates lists it. */
export async function templateId(ws: TestWorkspace, name: string): Promise<string> {
  const list = await ok(ws.api.get('/estimate_templates'));
  const found = list.data.find((t: { name: string }) => t.name === name);
  if (!found) {
    throw new Error(`no template named ${name}`);
  }
  return found.id;
}

/** GET /estimates/{id} that must answer 200. */
export const getEstimate = (ws: TestWorkspace, id: string): Promise<Json> =>
  ok(ws.api.get(`/estimates/${id}`));

/** A homeowner-side action of the control API (send, view, sign, decline). */
export const act = (h: Harness, id: string, verb: string, body?: unknown): Promise<Reply> =>
  h.admin.post(`/estimates/${id}/${verb}`, body);

/** A control API action that must answer 200; answers the estimate. */
export const acted = (h: Harness, id: string, verb: string, body?: unknown): Promise<Json> =>
  ok(act(h, id, verb, body));

/** Moves the virtual clock forward (running what fell due); answers the new now. */
export async function advance(h: Harness, seconds: number): Promise<string> {
  return (await ok(h.admin.post('/clock', { advance_seconds: seconds }))).now;
}

export async function clockNow(h: Harness): Promise<string> {
  return (await ok(h.admin.get('/clock'))).now;
}

export const idsOf = (res: Reply): string[] => res.body.data.map((r: { id: string }) => r.id);

/** A 400 invalid_request naming `field`. */
export function expect400(res: Reply, field: string): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
}

// US Central time, by Intl alone.

const central = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Chicago',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

/** `YYYY-MM-DD HH:MM` of an instant on a Chicago wall clock. */
function wall(ms: number): string {
  const p = Object.fromEntries(central.formatToParts(ms).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** The day an instant falls on in US Central time. */
export const centralDate = (iso: string): string => wall(Date.parse(iso)).slice(0, 10);

/** A calendar day `days` after another. */
export function plusDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
}

/** The instant a day passes in US Central time (its last millisecond), as the API shows it. */
export function centralDayEnd(date: string): string {
  const next = plusDays(date, 1);
  const [y, m, d] = next.split('-').map(Number);
  // Central midnight is 05:00 UTC in daylight time, 06:00 in standard time.
  for (const hours of [5, 6]) {
    const midnight = Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1, hours);
    if (wall(midnight) === `${next} 00:00`) {
      return new Date(midnight - 1).toISOString();
    }
  }
  throw new Error(`no Central midnight found for ${next}`);
}

/** Today in US Central time, by the virtual clock. */
export const centralToday = async (h: Harness): Promise<string> => centralDate(await clockNow(h));
