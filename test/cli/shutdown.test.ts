import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { connect } from 'node:net';
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

/** Resolves once `check` holds, looking every 10 ms (the test's own timeout bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves once a new connection to the port is refused: the server stopped listening. */
async function refusingConnections(port: number): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = connect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.once('error', () => resolve(true));
    });
    if (refused) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
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
      // No demo workspace: its seeded estimates and invoices fall due as real time passes, and
      // the work they start would be counted too, or not, as the stop comes before or after it.
      const first = await startServe(data, ['--no-seed']);
      const made = await http(`${first.url}/__admin/workspaces`, { method: 'POST', body: {} });
      expect(made.status).toBe(201);
      for (let i = 0; i < 3; i++) {
        expect((await newKey(first, made.body.id)).status).toBe(201);
      }
      expect(await first.stop(signal)).toEqual({ code: 0, signal: null });
      // The new file's store meta, the workspace made, and the three keys.
      expect(first.stdout()).toMatch(/\nsvc listening on \S+\nsvc stopped: 5 writes flushed\n$/);
      expect(first.stderr()).toBe('');

      // since this start, not since the file began: a run that wrote nothing says 0
      const second = await startServe(data, ['--no-seed']);
      expect(await second.stop(signal)).toEqual({ code: 0, signal: null });
      expect(second.stdout()).toMatch(/\nsvc stopped: 0 writes flushed\n$/);
    },
  );

  test('after SIGTERM a keep-alive connection is closed once its answer under way is sent, not served on', async () => {
    const data = join(await tempDir(), 'data.json');
    const server = await startServe(data);
    const key = bannerKeys(server.stdout())?.write ?? '';
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    let got = '';
    let ended = false;
    socket.on('data', (chunk: Buffer) => {
      got += chunk.toString('latin1');
    });
    socket.on('end', () => {
      ended = true;
    });
    socket.on('error', () => {
      ended = true;
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    // A write under way across the signal: its head sent, half its body held back.
    const body = JSON.stringify({ name: 'Under way', address: '1 Main St' });
    const half = Math.floor(body.length / 2);
    socket.write(
      `POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, half),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const exited = server.stop('SIGTERM');
    await refusingConnections(Number(port)); // svc has begun to shut down
    socket.write(body.slice(half));
    await until(() => /\r\n\r\n\{.*\}$/s.test(got));
    expect(got).toMatch(/^HTTP\/1\.1 201 /);
    // The same connection asked again at once: closed by the server, or answered and closed.
    const first = got.length;
    socket.write(
      `GET /v1/jobs?limit=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    );
    await until(() => ended);
    const second = got.slice(first);
    if (second !== '') {
      expect(second).toMatch(/^HTTP\/1\.1 200 .*\r\nConnection: close\r\n/is);
    }
    expect(await exited).toEqual({ code: 0, signal: null });
  });

  test('SIGTERM the moment the ready line appears exits 0, even while the code cache is written', async () => {
    // A copy of the install without dist/svc.cjs.cache: svc writes the cache right after it is
    // ready, the slowest moment for a signal to arrive.
    const dir = await tempDir();
    await mkdir(join(dir, 'bin'));
    await copyFile(BIN, join(dir, 'bin', 'svc.cjs'));
    // dist/ whole (what seeding requires beside svc.cjs too), but the cache.
    await cp(join(ROOT, 'dist'), join(dir, 'dist'), {
      recursive: true,
      filter: (src) => !src.endsWith('svc.cjs.cache'),
    });
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
