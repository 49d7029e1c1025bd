import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { BIN, bannerKeys, cleanup, http, type Server, startServe, tempDir } from '../support/spawn';

const ROOT = dirname(dirname(BIN));

afterEach(cleanup);

async function demoWorkspace(server: Server): Promise<string> {
  const list = await http(`${server.url}/__admin/workspaces`);
  expect(list.status).toBe(200);
  return list.body.data[0].id;
}

const newKey = (server: Server, wsId: string) =>
  http(`${server.url}/__admin/workspaces/${wsId}/keys`, {
    method: 'POST',
    body: { access: 'write' },
  });

async function journalSize(data: string): Promise<number> {
  return existsSync(`${data}.journal`) ? (await stat(`${data}.journal`)).size : 0;
}

describe('shutdown', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: svc serve exits 0 with every acknowledged write in the data file',
    async (signal) => {
      const data = join(await tempDir(), 'data.json');
      const server = await startServe(data);
      const wsId = await demoWorkspace(server);
      const created: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await newKey(server, wsId);
        expect(res.status).toBe(201);
        created.push(res.body.id);
      }
      expect(await journalSize(data)).toBeGreaterThan(0); // the writes went to the journal

      const exit = await server.stop(signal);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(await journalSize(data)).toBe(0);
      expect(existsSync(`${data}.lock`)).toBe(false);
      const file = JSON.parse(await readFile(data, 'utf8'));
      for (const id of created) {
        expect(file.global.api_keys[id]).toMatchObject({ id, workspace_id: wsId });
      }
    },
  );

  test.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: svc serve ends with one line counting the writes committed since it started',
    async (signal) => {
      const data = join(await tempDir(), 'data.json');
      const first = await startServe(data);
      const wsId = await demoWorkspace(first);
      for (let i = 0; i < 3; i++) {
        expect((await newKey(first, wsId)).status).toBe(201);
      }
      expect(await first.stop(signal)).toEqual({ code: 0, signal: null });
      expect(first.stdout()).toMatch(/\nsvc listening on \S+\nsvc stopped: 3 writes flushed\n$/);
      expect(first.stderr()).toBe('');

      // since this start, not since the file began: a run that wrote nothing says 0
      const second = await startServe(data);
      expect(await second.stop(signal)).toEqual({ code: 0, signal: null });
      expect(second.stdout()).toMatch(/\nsvc stopped: 0 writes flushed\n$/);
    },
  );

  test('SIGTERM the moment the ready line appears exits 0, even while the code cache is written', async () => {
    // A copy of the install without dist/svc.cjs.cache: svc writes the cache right after it is
    // ready, the slowest moment for a signal to arrive.
    const dir = await tempDir();
    await mkdir(join(dir, 'bin'));
    await mkdir(join(dir, 'dist'));
    await copyFile(BIN, join(dir, 'bin', 'svc.cjs'));
    await copyFile(join(ROOT, 'dist', 'svc.cjs'), join(dir, 'dist', 'svc.cjs'));
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const data = join(dir, 'data.json');
    for (let i = 0; i < 3; i++) {
      await rm(join(dir, 'dist', 'svc.cjs.cache'), { force: true });
      const server = await startServe(data, [], { bin: join(dir, 'bin', 'svc.cjs') });
      expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
      expect(existsSync(`${data}.lock`)).toBe(false);
    }
  });

  test('kill -9 mid-stream loses no acknowledged write', async () => {
    const data = join(await tempDir(), 'data.json');
    const server = await startServe(data);
    const wsId = await demoWorkspace(server);

    // a few writers POST keys until enough are acknowledged or time is up, then the server is
    // killed with requests still in flight
    const acknowledged: string[] = [];
    const target = 200;
    const deadline = Date.now() + 4000;
    let killed = false;
    const writer = async () => {
      while (!killed) {
        let res: Awaited<ReturnType<typeof newKey>>;
        try {
          res = await newKey(server, wsId);
        } catch {
          return; // the connection died with the server: never acknowledged
        }
        if (res.status === 201) {
          acknowledged.push(res.body.key);
        }
        if (!killed && (acknowledged.length >= target || Date.now() > deadline)) {
          killed = true;
          const exit = await server.stop('SIGKILL');
          expect(exit.signal).toBe('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer));
    expect(killed).toBe(true);
    expect(acknowledged.length).toBeGreaterThan(20);
    // the acknowledged writes are only in the journal: the restart must replay it
    expect(await journalSize(data)).toBeGreaterThan(0);

    const restarted = await startServe(data);
    expect(bannerKeys(restarted.stdout())).toBeDefined();
    const failed: string[] = [];
    for (let i = 0; i < acknowledged.length; i += 16) {
      await Promise.all(
        acknowledged.slice(i, i + 16).map(async (key) => {
          const ping = await http(`${restarted.url}/v1/ping`, { key });
          if (ping.status !== 200) {
            failed.push(`${key}: ${ping.status}`);
          }
        }),
      );
    }
    expect(failed).toEqual([]);
    expect((await restarted.stop()).code).toBe(0);
  });
});
