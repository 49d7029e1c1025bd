import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup, http, type Server, startServe, tempDir } from '../support/spawn';

// Issue 37: a deleted workspace leaves nothing behind on disk (the data file, its journal, the
// files folder, the request log), and a restart brings nothing back, whether svc stopped cleanly
// or was killed right after the deletion's 200.

afterEach(cleanup);

interface Made {
  id: string;
  write: string;
  read: string;
}

async function workspace(server: Server): Promise<Made> {
  const res = await http(`${server.url}/__admin/workspaces`, {
    method: 'POST',
    body: { profile: 'small' },
  });
  expect(res.status).toBe(201);
  return { id: res.body.id, write: res.body.keys.write.key, read: res.body.keys.read.key };
}

/** Leaves a mark of the workspace everywhere svc keeps one: records, bytes, the request log. */
async function use(server: Server, ws: Made): Promise<void> {
  const job = await http(`${server.url}/v1/jobs`, {
    method: 'POST',
    key: ws.write,
    body: { name: 'Roof', address: '1 Main St' },
  });
  expect(job.status).toBe(201);
  const form = new FormData();
  form.set('job_id', job.body.id);
  form.set('file', new Blob([Buffer.from(`bytes of ${ws.id}`)], { type: 'text/plain' }), 'a.txt');
  const file = await fetch(`${server.url}/v1/files`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ws.write}` },
    body: form,
  });
  expect(file.status).toBe(201);
  expect((await http(`${server.url}/v1/jobs`, { key: ws.read })).status).toBe(200);
}

/** Every file svc keeps beside `data`, as text, with the folder of each workspace's bytes. */
async function onDisk(data: string): Promise<string> {
  const texts: string[] = [];
  for (const suffix of ['', '.journal', '.journal.prev', '.requests.jsonl', '.requests.jsonl.1']) {
    texts.push(await readFile(`${data}${suffix}`, 'utf8').catch(() => ''));
  }
  return texts.join('\n');
}

/** Resolves once `check` holds, looking every 50 ms (the test's own timeout bounds it). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until nothing of `id` is on disk: the fold, the bytes and the log lines go soon after. */
async function goneFromDisk(data: string, id: string): Promise<void> {
  await until(
    async () => !existsSync(join(`${data}.files`, id)) && !(await onDisk(data)).includes(id),
  );
}

async function expectGone(server: Server, ws: Made): Promise<void> {
  expect((await http(`${server.url}/__admin/workspaces/${ws.id}`)).status).toBe(404);
  for (const key of [ws.write, ws.read]) {
    expect((await http(`${server.url}/v1/ping`, { key })).status).toBe(401);
  }
}

async function expectKept(server: Server, ws: Made): Promise<void> {
  expect((await http(`${server.url}/__admin/workspaces/${ws.id}`)).status).toBe(200);
  const jobs = await http(`${server.url}/v1/jobs`, { key: ws.read });
  expect(jobs.status).toBe(200);
  expect(jobs.body.data.some((j: { name: string }) => j.name === 'Roof')).toBe(true);
}

describe('a deleted workspace on disk', () => {
  test('leaves nothing in the data file, the files folder or the request log; a restart brings nothing back', async () => {
    const data = join(await tempDir(), 'data.json');
    let server = await startServe(data);
    const [gone, kept] = [await workspace(server), await workspace(server)];
    await use(server, gone);
    await use(server, kept);
    expect(existsSync(join(`${data}.files`, gone.id))).toBe(true);
    const res = await http(`${server.url}/__admin/workspaces/${gone.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    await expectGone(server, gone);
    await goneFromDisk(data, gone.id);
    expect(existsSync(join(`${data}.files`, kept.id))).toBe(true);
    expect((await onDisk(data)).includes(kept.id)).toBe(true);
    expect((await server.stop()).code).toBe(0);
    expect(await onDisk(data)).not.toContain(gone.id);

    server = await startServe(data);
    await expectGone(server, gone);
    await expectKept(server, kept);
    const requests = await http(`${server.url}/__admin/requests?limit=100`);
    expect(JSON.stringify(requests.body.data)).not.toContain(gone.id);
    await server.stop();
  }, 60_000);

  test('kill -9 right after the 200 loses nothing and brings nothing back', async () => {
    const data = join(await tempDir(), 'data.json');
    let server = await startServe(data);
    const [gone, kept] = [await workspace(server), await workspace(server)];
    await use(server, gone);
    await use(server, kept);
    const res = await http(`${server.url}/__admin/workspaces/${gone.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    await server.stop('SIGKILL');

    server = await startServe(data);
    await expectGone(server, gone);
    await expectKept(server, kept);
    // The start folds the deletion in, sweeps the bytes and blanks the log lines it left.
    await goneFromDisk(data, gone.id);
    const requests = await http(`${server.url}/__admin/requests?limit=100`);
    expect(requests.body.data.length).toBeGreaterThan(0);
    expect(JSON.stringify(requests.body.data)).not.toContain(gone.id);
    await server.stop();
    expect(await onDisk(data)).not.toContain(gone.id);
  }, 60_000);
});
