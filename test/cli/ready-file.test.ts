import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { BIN, bannerKeys, cleanup, http, runSvc, startServe, tempDir } from '../support/spawn';

// Issue 38: `svc serve --port 0 --ready-file FILE` tells a harness in any language where svc is
// and the keys of its workspaces (the shape DESIGN.md fixes), without parsing the banner.

afterEach(cleanup);

interface Ready {
  base_url: string;
  app_url: string;
  pid: number;
  workspaces: {
    id: string;
    name: string;
    keys: { write: { id: string; key: string }; read: { id: string; key: string } };
  }[];
}

const readReady = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Ready;

describe('svc serve --ready-file', () => {
  test('written once listening: base_url, app_url, pid and the seeded workspace with keys that work', async () => {
    const dir = await tempDir();
    const file = join(dir, 'ready.json');
    const server = await startServe(join(dir, 'data.json'), ['--ready-file', file]);
    const ready = await readReady(file);
    expect(Object.keys(ready).sort()).toEqual(['app_url', 'base_url', 'pid', 'workspaces']);
    expect(ready.app_url).toBe(server.url);
    expect(ready.base_url).toBe(`${server.url}/v1`);
    expect(ready.pid).toBe(server.pid);
    expect(ready.workspaces).toHaveLength(1);
    const [ws] = ready.workspaces;
    expect(ws?.keys.write.key).toBe(bannerKeys(server.stdout())?.write);
    const ping = await http(`${ready.base_url}/ping`, { key: ws?.keys.write.key ?? '' });
    expect(ping.status).toBe(200);
    const read = await http(`${ready.base_url}/jobs`, {
      method: 'POST',
      key: ws?.keys.read.key ?? '',
      body: { name: 'x' },
    });
    expect(read.status).toBe(403); // the read key is the read key
    await server.stop();
    expect(existsSync(file), 'removed on a clean stop').toBe(false);
  });

  test('a file an earlier start left is replaced, never read as this one', async () => {
    const dir = await tempDir();
    const file = join(dir, 'ready.json');
    await writeFile(file, JSON.stringify({ base_url: 'http://127.0.0.1:1/v1', pid: 1 }));
    const server = await startServe(join(dir, 'data.json'), ['--ready-file', file]);
    expect((await readReady(file)).pid).toBe(server.pid);
    await server.stop();
  });

  test('--no-seed on a new data file: no workspace, so none listed', async () => {
    const dir = await tempDir();
    const file = join(dir, 'nested', 'ready.json');
    const server = await startServe(join(dir, 'data.json'), ['--no-seed', '--ready-file', file]);
    expect((await readReady(file)).workspaces).toEqual([]);
    await server.stop();
  });

  test('a ready file that cannot be written: exit 1 with one line, and svc does not stay up', async () => {
    const dir = await tempDir();
    const blocker = join(dir, 'not-a-dir');
    await writeFile(blocker, 'a file where a folder is wanted');
    const run = await runSvc([
      'serve',
      '--port',
      '0',
      '--data',
      join(dir, 'data.json'),
      '--ready-file',
      join(blocker, 'ready.json'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^svc: cannot write --ready-file /);
    expect(run.stdout).not.toMatch(/svc listening on/);
  });

  test('a Python suite starts svc with --port 0 --ready-file, calls it and stops it by its pid', async () => {
    const dir = await tempDir();
    const script = join(import.meta.dirname, '..', 'fixtures', 'python', 'ready_file_suite.py');
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync('python3', [script], {
      env: { ...process.env, SVC_NODE: process.execPath, SVC_WORKDIR: dir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ok: job .* made, svc \(pid \d+\) stopped$/m);
  });

  test('the CI recipe starts svc, runs the tests with its address and keys, and stops it', async () => {
    const dir = await tempDir();
    const { spawnSync } = await import('node:child_process');
    const recipe = (...command: string[]) =>
      spawnSync(
        'sh',
        [join(import.meta.dirname, '..', '..', 'examples', 'ci', 'with-svc.sh'), ...command],
        {
          env: { ...process.env, SVC: `${process.execPath} ${BIN}`, SVC_WORKDIR: dir },
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
    const check = `test "$SVC_BASE_URL" != "" && curl -sf -H "Authorization: Bearer $SVC_WRITE_KEY" "$SVC_BASE_URL/ping" > "${dir}/ping.json"`;
    const run = recipe('sh', '-c', check);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const ping = JSON.parse(await readFile(join(dir, 'ping.json'), 'utf8'));
    expect(ping).toBeTypeOf('object');
    const failing = recipe('sh', '-c', 'exit 3');
    expect(failing.status, 'the tests’ exit status is the recipe’s').toBe(3);
    expect(failing.stdout + failing.stderr).toMatch(/svc stopped/);
  });

  test('the CI recipe with its default `npx svc` stops svc itself, not only npm', async () => {
    const dir = await tempDir();
    const { spawnSync } = await import('node:child_process');
    const env = { ...process.env };
    delete env.SVC;
    delete env.SVC_WORKDIR;
    const run = spawnSync(
      'sh',
      [
        join(import.meta.dirname, '..', '..', 'examples', 'ci', 'with-svc.sh'),
        'sh',
        '-c',
        `echo "$SVC_APP_URL" > "${dir}/app-url"`,
      ],
      { env, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/svc stopped/);
    const appUrl = (await readFile(join(dir, 'app-url'), 'utf8')).trim();
    await expect(fetch(`${appUrl}/__admin/clock`)).rejects.toThrow();
  });
});
