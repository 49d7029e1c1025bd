// Shared setup for the job tests: one fresh app and workspace per test, its boards and team,
// and the few store writes the API offers no way to make (co-assignees, secondary contacts,
// files, payments).
import { expect } from 'vitest';
import type { FileRecord } from '../../src/resources/files/schema';
import type { Job } from '../../src/resources/jobs/schema';
import { syncReceived } from '../../src/resources/money/api';
import type { Payment } from '../../src/resources/payments/schema';
import {
  type Harness,
  harness,
  type Json,
  type Reply,
  type TestWorkspace,
} from '../support/harness';

export interface Stage {
  id: string;
  pipeline_id: string;
  key: string;
  label: string;
  order: number;
  is_completed: boolean;
  is_lost: boolean;
}

export interface Board {
  id: string;
  name: string;
  is_default: boolean;
  stages: Stage[];
}

export interface User {
  id: string;
  name: string;
}

export interface Setup {
  h: Harness;
  ws: TestWorkspace;
  users: User[];
  insurance: Board;
  retail: Board;
  /**
   * The clock just after the workspace was made. A profile may seed jobs, notes and tasks, all
   * dated before it: `created_after: since` narrows a list to the test's own records.
   */
  since: string;
}

/** A uuid no workspace holds. */
export const UNKNOWN = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';

/** The two fields a job needs. */
export const BASE = { name: 'Hale roof', address: '418 Elm Street' };

/** A job body with every plain field set (spec, JobCreate). */
export const FULL = {
  ...BASE,
  city: 'Plano',
  county: 'Collin',
  state: 'TX',
  postal_code: '75024',
  lead_source: 'Door knock',
  priority: 'high',
  insurance_company: 'State Farm',
  claim_number: 'CLM-88',
  policy_number: 'POL-1',
  mortgage_company: 'First Bank',
  date_of_loss: '2026-04-02',
  contract_date: '2026-04-20',
  installation_date: '2026-05-01',
  financing_method: 'check',
  rcv_amount: 18000,
  acv_amount: 14000,
  deductible: 1000,
  supplements_amount: 900,
  estimated_amount: 17000,
  final_amount: 19500,
  damage_types: ['hail'],
  tags: ['vip'],
};

const DAY_S = 24 * 60 * 60;
export const DAYS = (n: number) => n * DAY_S;

// One app per test file (vitest gives each file its own module graph), no rate limit: building
// an app and its OpenAPI document costs more than the rest of a test. Tests never share a
// workspace, and the clock only moves forward, so tests of a file cannot see each other.
let shared: Harness | undefined;
const app = (): Harness => {
  shared ??= harness({ rateLimit: null });
  return shared;
};

/**
 * A new workspace of its own for one test: `small` has a team of five (and may seed records);
 * `empty` has only its owner and no records.
 */
export async function setup(
  profile: 'small' | 'empty' = 'small',
  h: Harness = app(),
): Promise<Setup> {
  const ws = await h.workspace({ profile });
  const users: User[] = (await ws.api.get('/users')).body.data;
  const pipelines: Board[] = (await ws.api.get('/pipelines')).body.data;
  const insurance = pipelines.find((p) => p.name === 'Insurance Restoration');
  const retail = pipelines.find((p) => p.name === 'Retail');
  if (!insurance || !retail || users.length < (profile === 'small' ? 3 : 1)) {
    throw new Error(`the ${profile} profile should have both boards and a team`);
  }
  const since = await advance(h, 1);
  return { h, ws, users, insurance, retail, since };
}

/** GET /jobs narrowed to the jobs the test made (see Setup.since). */
export const ownJobs = (s: Setup, query: Record<string, string | number | boolean> = {}) =>
  s.ws.api.get('/jobs', { query: { created_after: s.since, ...query } });

export function stageOf(board: Board, key: string): Stage {
  const stage = board.stages.find((s) => s.key === key);
  if (!stage) {
    throw new Error(`no stage ${key} on ${board.name}`);
  }
  return stage;
}

export async function newJob(ws: TestWorkspace, body: Record<string, unknown> = {}): Promise<Json> {
  const res = await ws.api.post('/jobs', { ...BASE, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function newContact(
  ws: TestWorkspace,
  body: Record<string, unknown> = { name: 'Dana Whitfield' },
): Promise<Json> {
  const res = await ws.api.post('/contacts', body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function newTask(
  ws: TestWorkspace,
  jobId: string,
  title = 'Call back',
): Promise<Json> {
  const res = await ws.api.post('/tasks', { title, job_id: jobId });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function newNote(
  ws: TestWorkspace,
  jobId: string,
  content = 'Ladder on site',
): Promise<Json> {
  const res = await ws.api.post('/notes', { job_id: jobId, content });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Moves the virtual clock forward (running due work) and answers the new now. */
export async function advance(h: Harness, seconds: number): Promise<string> {
  const res = await h.admin.post('/clock', { advance_seconds: seconds });
  expect(res.status, res.text).toBe(200);
  return res.body.now;
}

export async function clockNow(h: Harness): Promise<string> {
  return (await h.admin.get('/clock')).body.now;
}

export const idsOf = (res: Reply): string[] => res.body.data.map((r: { id: string }) => r.id);

/** Test setup only: changes a stored job where the API offers no way to. */
export async function amendJob(
  h: Harness,
  ws: TestWorkspace,
  id: string,
  patch: Partial<Job>,
): Promise<void> {
  await h.rt.store.ensure(ws.id); // on PostgreSQL, let go since its last request
  const rec = h.rt.store.workspace(ws.id).get('jobs', id);
  if (!rec) {
    throw new Error(`no stored job ${id}`);
  }
  h.rt.store.transaction((tx) => tx.workspace(ws.id).put('jobs', { ...rec, ...patch }));
}

/** Test setup only: a file on a job (svc has no upload endpoint yet). */
export function putFile(
  h: Harness,
  ws: TestWorkspace,
  jobId: string,
  category: FileRecord['category'],
): string {
  const id = crypto.randomUUID();
  const at = h.rt.clock.iso();
  h.rt.store.transaction((tx) =>
    tx.workspace(ws.id).put('files', {
      id,
      object: 'file',
      job_id: jobId,
      name: `${category}.jpg`,
      category,
      mime_type: 'image/jpeg',
      is_photo: category === 'photo',
      is_video: false,
      size_bytes: 1024,
      description: null,
      tags: [],
      latitude: null,
      longitude: null,
      taken_at: null,
      uploaded_by_id: null,
      created_at: at,
    }),
  );
  return id;
}

/**
 * Test setup only: a payment of any amount and status on a job, written as the app would (the
 * job keeps its money in hand), where POST /payments takes only positive amounts.
 */
export function putPayment(
  h: Harness,
  ws: TestWorkspace,
  jobId: string,
  amount: number,
  status: Payment['status'] = 'received',
): string {
  const id = crypto.randomUUID();
  const at = h.rt.clock.iso();
  h.rt.store.transaction((tx) => {
    tx.workspace(ws.id).put('payments', {
      id,
      object: 'payment',
      job_id: jobId,
      invoice_id: null,
      amount,
      payment_type: 'other',
      payer_type: 'homeowner',
      payment_method: 'check',
      status,
      check_number: null,
      date_received: null,
      date_deposited: null,
      notes: null,
      is_refund: amount < 0,
      refund_of_payment_id: null,
      online: false,
      created_at: at,
      updated_at: at,
    });
    syncReceived(tx.workspace(ws.id), jobId, at);
  });
  return id;
}
