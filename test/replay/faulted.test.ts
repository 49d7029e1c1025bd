import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { replay } from '../../src/clients/replay/run';
import { readSource } from '../../src/clients/replay/source';
import { defaultConfig } from '../../src/runtime';
import { type RunningServer, startServer } from '../../src/server';
import { call, type Workspace, workspace } from './session';

// decisions.md, Faults: a recorded call a fault answered (a status, or a dropped connection) is
// skipped by svc replay, with the reason: the recorded answer was the fault's and the call changed
// nothing, so sending it would make what the recording never made. A delay alone let the real
// answer through: that call is replayed and compared as any other.

let dir: string;
let a: RunningServer;
let b: RunningServer;
let recorded: Workspace;

const start = (name: string) =>
  startServer({
    port: 0,
    host: '127.0.0.1',
    data: join(dir, name),
    seed: false,
    config: defaultConfig({ log: () => {} }),
  });

async function addFault(body: unknown): Promise<void> {
  const res = await fetch(`${a.url}/__admin/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-replay-faulted-'));
  [a, b] = await Promise.all([start('a.json'), start('b.json')]);
  recorded = await workspace(a.url);
  const v1 = `${a.url}/v1`;
  const ws = recorded.id;
  // A client that retries: a 500 on the create, then the create; a drop on the read, then it.
  await addFault({
    match: { workspace_id: ws, method: 'POST' },
    action: { status: 500 },
    times: 1,
  });
  expect((await call('POST', `${v1}/contacts`, recorded.key, { first_name: 'Ada' })).status).toBe(
    500,
  );
  const made = await call('POST', `${v1}/contacts`, recorded.key, { first_name: 'Ada' });
  expect(made.status).toBe(201);
  await addFault({ match: { workspace_id: ws, method: 'GET' }, action: { drop: true }, times: 1 });
  await expect(call('GET', `${v1}/contacts/${made.body.id}`, recorded.key)).rejects.toThrow();
  expect((await call('GET', `${v1}/contacts/${made.body.id}`, recorded.key)).status).toBe(200);
  await addFault({
    match: { workspace_id: ws, method: 'PATCH' },
    action: { delay_ms: 5 },
    times: 1,
  });
  const patched = await call('PATCH', `${v1}/contacts/${made.body.id}`, recorded.key, {
    last_name: 'L',
  });
  expect(patched.status).toBe(200);
  await new Promise((r) => setTimeout(r, 50)); // the log is written after the answers
}, 30_000);

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('svc replay of a session with faults', () => {
  test.each([true, false])(
    'faulted answers are skipped with the reason; the rest, a delayed call too, replay same (compare %s)',
    async (compare) => {
      const target = await workspace(b.url);
      const entries = await readSource(a.url, { workspace: recorded.id });
      const outcomes = await replay(
        entries,
        { to: b.url, key: target.key, keyMap: new Map(), compare },
        () => {},
      );
      expect(
        outcomes.map((o) => [
          o.method,
          o.recorded_status,
          o.result,
          o.reason?.split(':')[0] ?? null,
        ]),
      ).toEqual([
        ['POST', 500, 'skipped', 'faulted'],
        ['POST', 201, 'same', null],
        ['GET', 0, 'skipped', 'faulted'],
        ['GET', 200, 'same', null],
        ['PATCH', 200, 'same', null],
      ]);
      expect(outcomes[0]?.reason).toMatch(
        /^faulted: the recorded answer was fault flt_[0-9a-f]{16}'s/,
      );
      // the skipped create made nothing on the target: one contact, as on the source
      const list = await call('GET', `${b.url}/v1/contacts`, target.key);
      expect(list.body.data).toHaveLength(1);
    },
  );
});
