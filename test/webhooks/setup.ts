// Shared by the webhook tests: the apps they run on, receivers on 127.0.0.1, the requests they
// repeat and the readings of what arrived. Importing it registers the afterEach that closes every
// receiver and stops every scheduler a test started through it.
import { afterEach, expect } from 'vitest';
import type { Config } from '../../src/platform/config';
import { Contract } from '../support/contract';
import { ok } from '../support/expect';
import {
  type Client,
  type Harness,
  harness,
  type Json,
  type Reply,
  type TestWorkspace,
} from '../support/harness';
import { type Received, Receiver } from '../support/receiver';

export { ok };

/** The seed profiles POST /__admin/workspaces knows. */
export type Profile = 'empty' | 'small' | 'demo';

/** How a receiver answers its n-th request (1-based). */
export type Answerer = Parameters<Receiver['answer']>[0];

/** A harness that may deliver, one workspace and one receiver: what a delivery test starts from. */
export interface Ctx {
  h: Harness;
  ws: TestWorkspace;
  rx: Receiver;
}

/** A subscription to one event as POST /webhooks answers it (the secret is shown only here). */
export interface Webhook {
  id: string;
  secret: string;
  event: string;
  target_url: string;
  filters: Record<string, string>;
}

/** A delivery whose body the test reads field by field. */
export type Delivered = Omit<Received, 'json'> & { json: Json };

/** Timestamps as the API writes them. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Ids, event ids and delivery ids. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The fields every delivery body adds to its record (spec, Events › Delivery body). */
export const EVENT_FIELDS: readonly string[] = [
  'event_type',
  'event_id',
  'event_at',
  'event_workspace_id',
];

/** spec, Events › The 30 events, in the spec's order. */
export const SPEC_EVENTS: readonly string[] = [
  'job.created',
  'job.updated',
  'job.stage_changed',
  'job.assigned',
  'job.deleted',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'task.created',
  'task.updated',
  'task.completed',
  'task.deleted',
  'appointment.created',
  'estimate.created',
  'estimate.sent',
  'estimate.viewed',
  'estimate.signed',
  'estimate.declined',
  'invoice.created',
  'invoice.sent',
  'invoice.paid',
  'invoice.overdue',
  'invoice.voided',
  'payment.received',
  'payment.refunded',
  'note.created',
  'file.created',
  'pin.created',
  'pin.result_changed',
  'storm_list.ready',
];

/** A target on a public IP literal: accepted without a name lookup, never sent to. */
export const hook = (name: number | string) => `https://93.184.216.34/hooks/${name}`;

// What the tests of a file started, undone after each test: schedulers stopped, receivers closed,
// and every delivery a receiver of setup() got checked against the document's x-webhooks.
const harnesses: Harness[] = [];
const receivers: Receiver[] = [];
const checked: [Harness, Receiver][] = [];
afterEach(async () => {
  const problems: string[] = [];
  for (const [h, rx] of checked.splice(0)) {
    problems.push(...(await deliveryViolations(h, rx)));
  }
  for (const rt of harnesses.splice(0).flatMap((h) => h.runtimes)) {
    rt.scheduler.stop();
  }
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  expect(problems, 'deliveries that break their description').toEqual([]);
});

const deliveryContracts = new Map<Harness, Promise<Contract>>();

async function deliveryViolations(h: Harness, rx: Receiver): Promise<string[]> {
  let contract = deliveryContracts.get(h);
  if (!contract) {
    contract = Promise.resolve(h.app.request('/v1/openapi.json'))
      .then((r) => r.json())
      .then((doc) => Contract.deliveries(doc as object));
    deliveryContracts.set(h, contract);
  }
  const c = await contract;
  return rx.received.flatMap((got) =>
    c.checkDelivery(
      Object.fromEntries(Object.entries(got.headers).map(([k, v]) => [k, String(v)])),
      got.json,
    ),
  );
}

// One app per test file and configuration (vitest gives each file its own module graph), for the
// tests that never deliver: building an app and its OpenAPI document costs more than a test.
const apps = new Map<string, Harness>();

/** The file's shared app for `config`, without a rate limit; every test makes its own workspace. */
export function app(config: Partial<Config> = {}): Harness {
  const key = JSON.stringify(config);
  let h = apps.get(key);
  if (!h) {
    h = harness({ rateLimit: null, ...config });
    apps.set(key, h);
  }
  return h;
}

/** A new workspace of `profile` on the file's shared app. */
export async function fresh(
  profile: Profile = 'small',
): Promise<{ h: Harness; ws: TestWorkspace }> {
  const h = app();
  return { h, ws: await h.workspace({ profile }) };
}

/** A harness of the test's own that may deliver to 127.0.0.1 (no rate limit, 1 s coalescing). */
export function hookHarness(config: Partial<Config> = {}): Harness {
  const h = harness({
    allowLocalTargets: true,
    rateLimit: null,
    webhookCoalesceMs: 1000,
    ...config,
  });
  harnesses.push(h);
  return h;
}

/** A receiver on 127.0.0.1, answering 200 unless told otherwise, closed after the test. */
export async function receiver(answer?: Answerer): Promise<Receiver> {
  const rx = await Receiver.start();
  receivers.push(rx);
  return answer ? rx.answer(answer) : rx;
}

/** What setup() varies between files: the seed, the configuration, the receiver's answers. */
export interface SetupOptions {
  /** The workspace's seed profile: 'empty' unless the test needs a team or records around. */
  profile?: Profile;
  /** On top of hookHarness's configuration, e.g. another coalescing window. */
  config?: Partial<Config>;
  /** How the receiver answers. */
  answer?: Answerer;
}

/** A harness, a workspace and a receiver of the test's own. */
export async function setup({
  profile = 'empty',
  config,
  answer,
}: SetupOptions = {}): Promise<Ctx> {
  const h = hookHarness(config);
  const ws = await h.workspace({ profile });
  const rx = await receiver(answer);
  checked.push([h, rx]);
  return { h, ws, rx };
}

/** A request that must answer `status`; answers the body. */
/** A receiver answering as told, subscribed to job.created on a workspace of its own. */
export async function jobCreatedHook(answer: Answerer = () => 200) {
  const c = await setup({ answer });
  const hook = await subscribe(c, 'job.created');
  return { h: c.h, ws: c.ws, r: c.rx, hook };
}

/** The X-Service-Signature header of a received delivery, as text. */
export const signatureOf = (got: Received | undefined): string =>
  String(got?.headers['x-service-signature']);

/** POST /webhooks that must answer 201; answers the subscription (or the list `events` makes). */
export const createWebhook = (client: Client, body: Record<string, unknown>): Promise<Json> =>
  ok(client.post('/webhooks', body), 201);

/** Subscribes the test's receiver to `event`, with `filters` when given. */
export const subscribe = (
  c: Ctx,
  event: string,
  filters?: Record<string, unknown>,
): Promise<Webhook> =>
  createWebhook(c.ws.api, {
    event,
    target_url: c.rx.url,
    ...(filters === undefined ? {} : { filters }),
  });

/** Subscribes `url` to `event`, job.created unless told. */
export const subscribeUrl = (
  ws: TestWorkspace,
  url: string,
  event = 'job.created',
): Promise<Webhook> => createWebhook(ws.api, { event, target_url: url });

/** Moves the virtual clock; what fell due has been delivered when it answers the new now. */
export async function advance(h: Harness, seconds: number): Promise<string> {
  return (await ok(h.admin.post('/clock', { advance_seconds: seconds }))).now;
}

/** POST /jobs that must answer 201 (the two required fields given); answers the job. */
export const newJob = (ws: TestWorkspace, body: Record<string, unknown> = {}): Promise<Json> =>
  ok(ws.api.post('/jobs', { name: 'Roof', address: '1 Main St', ...body }), 201);

/** A job named `name`, for the tests that only need a change to deliver; answers its id. */
export const createJob = async (ws: TestWorkspace, name = 'A'): Promise<string> =>
  (await newJob(ws, { name })).id;

/** PATCH /jobs/{id} that must succeed; answers the job. */
export const patchJob = (
  ws: TestWorkspace,
  id: string,
  body: Record<string, unknown>,
): Promise<Json> => ok(ws.api.patch(`/jobs/${id}`, body));

/** A subscription's delivery log, newest first (GET /__admin/webhooks/{id}/deliveries). */
export async function log(h: Harness, hookId: string): Promise<Json[]> {
  const body = await ok(h.admin.get(`/webhooks/${hookId}/deliveries`));
  expect(body.object).toBe('list');
  return body.data;
}

/** The event names that arrived, in order. */
export const eventsOf = (rx: Receiver): string[] =>
  rx.received.map((r) => String(r.json.event_type));

/** The one delivery of `event`; fails when there is none or more than one. */
export function one(rx: Receiver, event: string): Delivered {
  const got = rx.received.filter((r) => r.json.event_type === event);
  expect(
    got.map((r) => r.json.event_type),
    `deliveries of ${event}`,
  ).toEqual([event]);
  return got[0] as Delivered;
}

/** The record part of a delivery body: everything but the event fields and `extra`. */
export const recordOf = (body: Json, extra: string[] = []): Json =>
  Object.fromEntries(
    Object.entries(body).filter(([k]) => !EVENT_FIELDS.includes(k) && !extra.includes(k)),
  );

/** The ids of a list answer, in its order. */
export const idsOf = (res: Reply): string[] => res.body.data.map((w: { id: string }) => w.id);

/** GET /webhooks of `client`: the ids of its subscriptions, newest first. */
export async function listIds(client: Client): Promise<string[]> {
  const res = await client.get('/webhooks');
  expect(res.status, res.text).toBe(200);
  return idsOf(res);
}

/** Sends under way on every node of `h`. */
export const sending = (h: Harness): number =>
  h.runtimes.reduce((sum, rt) => sum + rt.deliveries.sending, 0);

/** Starts the scheduler of every node of `h`: due work then runs on the wall clock's time. */
export function startSchedulers(h: Harness): void {
  for (const rt of h.runtimes) {
    rt.scheduler.start();
  }
}

/**
 * The stored signing secrets of a subscription (the API shows a secret only once), as the last
 * node to write the workspace left them.
 */
export async function storedSecrets(h: Harness, ws: TestWorkspace, id: string): Promise<string[]> {
  const store = h.rt.store;
  (await store.residency?.holdAll([ws.id]))?.();
  const rec = store.workspace(ws.id).get('webhooks', id);
  if (!rec) {
    throw new Error(`no stored webhook ${id}`);
  }
  return rec.secrets.map((s) => s.secret);
}

/** A board column as GET /stages answers it. */
export interface Stage {
  key: string;
  label: string;
  pipeline_id: string;
}
