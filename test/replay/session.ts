// A recorded session for the replay tests: servers started once a file, a workspace a test.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Outcome } from '../../src/clients/replay/run';
import { http, type RunResult, runSvc, tempDir } from '../support/spawn';

export interface Workspace {
  id: string;
  key: string;
  keyId: string;
  readKey: string;
  readKeyId: string;
}

export async function workspace(server: string): Promise<Workspace> {
  const made = await http(`${server}/__admin/workspaces`, {
    method: 'POST',
    body: { profile: 'empty' },
  });
  expect(made.status).toBe(201);
  const { write, read } = made.body.keys;
  return {
    id: made.body.id,
    key: write.key,
    keyId: write.id,
    readKey: read.key,
    readKeyId: read.id,
  };
}

/** `POST|PATCH|DELETE|GET url` with a key, JSON in and out, and any extra headers. */
export async function call(
  method: string,
  url: string,
  key: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(url, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

export interface Recorded {
  ws: Workspace;
  contactId: string;
  jobId: string;
}

/**
 * The session of issue 18: a create, its idempotent retry, an update, a read, a 400, a job made
 * with the contact's id in its body, its update, and the deletes.
 */
export async function recordSession(server: string): Promise<Recorded> {
  const ws = await workspace(server);
  const v1 = `${server}/v1`;
  const idem = { 'Idempotency-Key': `create-ada-${ws.id}` };
  const made = await call('POST', `${v1}/contacts`, ws.key, { first_name: 'Ada' }, idem);
  expect(made.status).toBe(201);
  const retry = await call('POST', `${v1}/contacts`, ws.key, { first_name: 'Ada' }, idem);
  expect(retry.body.id).toBe(made.body.id);
  const contactId: string = made.body.id;
  expect(
    (await call('PATCH', `${v1}/contacts/${contactId}`, ws.key, { last_name: 'L' })).status,
  ).toBe(200);
  expect((await call('GET', `${v1}/contacts/${contactId}`, ws.key)).status).toBe(200);
  expect((await call('POST', `${v1}/contacts`, ws.key, {})).status).toBe(400);
  const job = await call('POST', `${v1}/jobs`, ws.key, {
    name: 'Roof',
    address: '1 Elm St',
    homeowner_id: contactId,
  });
  expect(job.status).toBe(201);
  const jobId: string = job.body.id;
  expect((await call('PATCH', `${v1}/jobs/${jobId}`, ws.key, { priority: 'high' })).status).toBe(
    200,
  );
  expect((await call('GET', `${v1}/jobs`, ws.key, undefined)).status).toBe(200);
  expect((await call('DELETE', `${v1}/jobs/${jobId}`, ws.key)).status).toBe(200);
  expect((await call('DELETE', `${v1}/contacts/${contactId}`, ws.key)).status).toBe(200);
  return { ws, contactId, jobId };
}

export const SESSION_LENGTH = 10;

/** The export of `server`'s request log for one workspace, in a file. */
export async function exportTo(server: string, workspaceId: string): Promise<string> {
  const res = await fetch(`${server}/__admin/requests?format=jsonl&workspace_id=${workspaceId}`);
  expect(res.headers.get('content-type')).toBe('application/x-ndjson');
  const file = join(await tempDir(), 'log.jsonl');
  await writeFile(file, await res.text());
  return file;
}

export async function replayJson(args: string[]): Promise<RunResult & { report: ReplayReport }> {
  const run = await runSvc(['replay', ...args, '--json']);
  let report: ReplayReport;
  try {
    report = JSON.parse(run.stdout) as ReplayReport;
  } catch {
    throw new Error(`svc replay printed no JSON (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  }
  return { ...run, report };
}

export interface ReplayReport {
  /** --json leaves out `failed`: a request with no answer shows as status null. */
  requests: Omit<Outcome, 'failed'>[];
  same: number;
  different: number;
  skipped: number;
}
