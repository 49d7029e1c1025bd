import { expect } from 'vitest';
import {
  type Harness,
  harness,
  type Json,
  type Reply,
  type TestWorkspace,
} from '../support/harness';
import { idsIn, walkPages } from '../support/pages';

// Shared by the task tests: a fresh harness and workspace per test, and the records tasks point at.

export interface Setup {
  h: Harness;
  ws: TestWorkspace;
}

/**
 * A harness of its own and one workspace: `empty` (the owner alone, no records) by default, so
 * lists hold only the test's own tasks; `small` (a team of five with seeded jobs, contacts and
 * tasks) where a second teammate or other records around are needed.
 */
export async function setup(profile: 'small' | 'empty' = 'empty'): Promise<Setup> {
  const h = harness({ rateLimit: null });
  return { h, ws: await h.workspace({ profile }) };
}

/** Moves the clock forward; answers the new now. */
export async function advance(h: Harness, seconds: number): Promise<string> {
  const res = await h.admin.post('/clock', { advance_seconds: seconds });
  expect(res.status).toBe(200);
  return res.body.now;
}

export async function addJob(ws: TestWorkspace, name = 'Roof replacement'): Promise<string> {
  const res = await ws.api.post('/jobs', { name, address: '1 Main St' });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

export async function addContact(ws: TestWorkspace, name = 'Mary Smith'): Promise<string> {
  const res = await ws.api.post('/contacts', { name });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

export async function users(ws: TestWorkspace): Promise<{ id: string; name: string }[]> {
  const res = await ws.api.get('/users');
  expect(res.body.data.length).toBeGreaterThanOrEqual(1);
  return res.body.data;
}

/** POST /tasks (or /appointments) that must succeed; answers the task. */
export async function addTask(
  ws: TestWorkspace,
  body: Record<string, unknown>,
  path: '/tasks' | '/appointments' = '/tasks',
): Promise<Json> {
  const res = await ws.api.post(path, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Ids of a list answer, in the order given. */
export const idsOf = (res: Reply): string[] => res.body.data.map((t: { id: string }) => t.id);

/** Every task id of a list, following next_cursor to the end. */
export const allIds = async (
  ws: TestWorkspace,
  path: string,
  query: Record<string, string | number> = {},
): Promise<string[]> => idsIn((await walkPages(ws.api, path, query)).data);

/** A 400 invalid_request naming `field`. */
export function expectInvalid(res: Reply, field: string): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
}
