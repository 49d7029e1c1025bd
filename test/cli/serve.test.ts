import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { encodeGroup } from '../../src/store/journal';
import { bannerKeys, cleanup, http, runSvc, startServe, tempDir } from '../support/spawn';

afterEach(cleanup);

const READY_LINE = /^svc listening on http:\/\/127\.0\.0\.1:\d+$/m;

describe('svc serve: the data file', () => {
  test('svc serve without --data creates ./.svc/data.json seeded with a demo workspace', async () => {
    const cwd = await tempDir();
    const server = await startServe(undefined, [], { cwd });
    expect(existsSync(join(cwd, '.svc', 'data.json'))).toBe(true);
    const keys = bannerKeys(server.stdout());
    expect(keys).toBeDefined();
    const ping = await http(`${server.url}/v1/ping`, { key: keys?.write });
    expect(ping.status).toBe(200);
    expect((await server.stop()).code).toBe(0);
  });

  test('svc serve on a missing file seeds a demo workspace and prints its base URL and keys', async () => {
    const cwd = await tempDir();
    const server = await startServe('./data.json', [], { cwd });
    const out = server.stdout();
    expect(out).toMatch(READY_LINE);
    expect(out).toContain(`base URL  ${server.url}/v1`);
    expect(out).toContain('(new, seeded with a demo workspace)');
    expect(existsSync(join(cwd, 'data.json'))).toBe(true);
    const keys = bannerKeys(out);
    expect(keys?.write).toMatch(/^svc_live_/);
    expect(keys?.read).toMatch(/^svc_live_/);

    const write = await http(`${server.url}/v1/ping`, { key: keys?.write });
    expect(write.status).toBe(200);
    expect(write.body.key.access).toBe('write');
    const read = await http(`${server.url}/v1/ping`, { key: keys?.read });
    expect(read.status).toBe(200);
    expect(read.body.key.access).toBe('read');
    expect(read.body.workspace_id).toBe(write.body.workspace_id);
    expect((await http(`${server.url}/v1/ping`)).status).toBe(401);
    expect((await server.stop()).code).toBe(0);
  });

  test('a second start on the same file prints the same keys and does not reseed it', async () => {
    const cwd = await tempDir();
    const first = await startServe('./data.json', [], { cwd });
    const keys = bannerKeys(first.stdout());
    const workspaces = await http(`${first.url}/__admin/workspaces`);
    const [ws] = workspaces.body.data;
    // a mark a reseed would wipe out
    const marker = await http(`${first.url}/__admin/workspaces/${ws.id}/keys`, {
      method: 'POST',
      body: { access: 'read', name: 'marker' },
    });
    expect(marker.status).toBe(201);
    expect((await first.stop()).code).toBe(0);
    const stopped = await readFile(join(cwd, 'data.json'));

    const second = await startServe('./data.json', [], { cwd });
    // nothing rewrites the file on start
    expect((await readFile(join(cwd, 'data.json'))).equals(stopped)).toBe(true);
    expect(second.stdout()).not.toContain('(new');
    expect(bannerKeys(second.stdout())).toEqual(keys);
    const again = await http(`${second.url}/__admin/workspaces`);
    expect(again.body.data.map((w: { id: string }) => w.id)).toEqual([ws.id]);
    const ping = await http(`${second.url}/v1/ping`, { key: marker.body.key });
    expect(ping.status).toBe(200);
    expect((await second.stop()).code).toBe(0);
  });

  test('--no-seed on a missing file starts with no workspaces', async () => {
    const dir = await tempDir();
    const server = await startServe(join(dir, 'empty.json'), ['--no-seed']);
    expect(bannerKeys(server.stdout())).toBeUndefined();
    expect(server.stdout()).toContain('(new, empty)');
    const list = await http(`${server.url}/__admin/workspaces`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expect((await server.stop()).code).toBe(0);
  });

  test('a store killed before its first snapshot is not reseeded on the next start: its writes survive', async () => {
    const data = join(await tempDir(), 'data.json');
    const first = await startServe(data, ['--no-seed']);
    const made = await http(`${first.url}/__admin/workspaces`, {
      method: 'POST',
      body: { name: 'Kept Roofing' },
    });
    expect(made.status).toBe(201);
    expect(existsSync(data)).toBe(false); // only the journal holds it
    expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');

    const second = await startServe(data); // without --no-seed: a missing data file would seed
    expect(second.stdout()).not.toContain('(new');
    const list = await http(`${second.url}/__admin/workspaces`);
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([made.body.id]);
    expect((await second.stop()).code).toBe(0);
  });

  const v1 = { format: 'svc-data', version: 1, seq: 0, global: {}, workspaces: {} };
  test.each([
    ['is not JSON', '{"format": "svc-data", "vers'],
    ['is not an svc data file', '{"users": []}'],
    ['has another format version', JSON.stringify({ ...v1, version: 99 })],
  ])(
    'svc serve on a data file that %s exits non-zero naming it and leaves it unchanged',
    async (_why, text) => {
      const dir = await tempDir();
      const data = join(dir, 'data.json');
      await writeFile(data, text);
      const before = await readFile(data);

      const run = await runSvc(['serve', '--port', '0', '--data', data]);
      expect(run.code).not.toBe(0);
      expect(run.code).not.toBeNull();
      expect(run.stderr).toContain(data);
      expect(run.stdout).not.toMatch(READY_LINE);
      expect(await readFile(data)).toEqual(before);
      expect((await readdir(dir)).sort()).toEqual(['data.json']);
    },
  );

  test('svc serve on a journal corrupt in the middle exits non-zero naming it and leaves it unchanged', async () => {
    const dir = await tempDir();
    const data = join(dir, 'data.json');
    await writeFile(data, JSON.stringify(v1));
    const lines = [1, 2, 3].map((seq) =>
      encodeGroup([{ seq, ops: [['g', 'things', `t${seq}`, { id: `t${seq}`, n: 100 + seq }]] }]),
    );
    lines[1] = (lines[1] as string).replace('102', '103');
    const journal = Buffer.from(lines.join(''));
    await writeFile(`${data}.journal`, journal);

    const run = await runSvc(['serve', '--port', '0', '--data', data]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${data}.journal`);
    expect(await readFile(`${data}.journal`)).toEqual(journal);
  });

  test('svc serve on a port in use exits 1 with one line and creates no data file', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const dir = await tempDir();
      const run = await runSvc(['serve', '--port', String(port), '--data', join(dir, 'new.json')]);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`svc: port ${port} is already in use on 127.0.0.1\n`);
      expect(run.stdout).toBe('');
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  test('a second svc serve on a data file already served exits non-zero naming it', async () => {
    const data = join(await tempDir(), 'data.json');
    const server = await startServe(data, ['--no-seed']);
    const run = await runSvc(['serve', '--port', '0', '--data', data]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(data);
    expect(run.stderr).toContain(`pid ${server.pid}`);
    // and the first server is unharmed
    expect((await http(`${server.url}/__admin/workspaces`)).status).toBe(200);
    expect((await server.stop()).code).toBe(0);
  });
});

describe('svc serve: the banner', () => {
  test('every address the banner prints answers 200; the base URL is the prefix of /v1/ping', async () => {
    const server = await startServe(join(await tempDir(), 'data.json'));
    const out = server.stdout();
    const banner = out.slice(0, out.search(READY_LINE));
    const keys = bannerKeys(out);
    const baseUrl = /^ {2}base URL {2}(\S+)$/m.exec(banner)?.[1];
    expect(baseUrl).toBe(`${server.url}/v1`);
    expect((await http(`${baseUrl}/ping`, { key: keys?.write })).status).toBe(200);
    const addresses = [...banner.matchAll(/http:\/\/\S+/g)]
      .map(([address]) => address)
      .filter((address) => address !== baseUrl)
      // the inspector is its own issue's; the browser tests check that it answers
      .filter((address) => address !== `${server.url}/inspector`);
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) {
      expect([address, (await http(address)).status]).toEqual([address, 200]);
    }
    expect((await server.stop()).code).toBe(0);
  });

  test('the banner names the web app, its docs and its inspector first, then the API addresses', async () => {
    const server = await startServe(join(await tempDir(), 'data.json'));
    const out = server.stdout();
    const lines = out.split('\n').filter((line) => /^ {2}\S/.test(line));
    expect(lines.slice(1, 7)).toEqual([
      `  app       ${server.url}/`,
      `  docs      ${server.url}/docs`,
      `  inspector ${server.url}/inspector`,
      `  base URL  ${server.url}/v1`,
      `  OpenAPI   ${server.url}/v1/openapi.json`,
      `  admin API ${server.url}/__admin/openapi.json`,
    ]);
    // the docs page the banner names is the reference, with swagger-ui read from node_modules
    // by the built CLI (dist/svc.cjs), not only under vitest
    const docs = await fetch(`${server.url}/docs`);
    expect(await docs.text()).toContain('data-openapi-url="/v1/openapi.json"');
    const bundle = await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await bundle.text()).length).toBeGreaterThan(1_000_000);
    expect((await server.stop()).code).toBe(0);
  });

  test('--allow-local-targets adds one banner line: webhook targets may be http: and local, which the real service refuses', async () => {
    const dir = await tempDir();
    const allowed = await startServe(join(dir, 'a.json'), ['--allow-local-targets']);
    expect(allowed.stdout()).toContain(
      '\n  webhooks  targets may be http: and loopback or private addresses' +
        ' (--allow-local-targets; the real service refuses them)\n',
    );
    expect((await allowed.stop()).code).toBe(0);

    const faithful = await startServe(join(dir, 'f.json'));
    expect(faithful.stdout()).not.toMatch(/^ {2}webhooks /m);
    expect((await faithful.stop()).code).toBe(0);
  });
});

describe('svc serve: rate limit', () => {
  test('--rate-limit 2: the third request with one key within a minute is 429 with Retry-After', async () => {
    const server = await startServe(join(await tempDir(), 'data.json'), ['--rate-limit', '2']);
    const keys = bannerKeys(server.stdout());
    const ping = () => http(`${server.url}/v1/ping`, { key: keys?.write });
    const first = await ping();
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await ping()).status).toBe(200);
    const third = await ping();
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('rate_limited');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(third.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // the limit is per key: the read key still has its own two
    expect((await http(`${server.url}/v1/ping`, { key: keys?.read })).status).toBe(200);
    await server.stop();
  });

  test('--rate-limit off: no X-RateLimit headers and no 429', async () => {
    const server = await startServe(join(await tempDir(), 'data.json'), ['--rate-limit', 'off']);
    const keys = bannerKeys(server.stdout());
    for (let i = 0; i < 5; i++) {
      const res = await http(`${server.url}/v1/ping`, { key: keys?.write });
      expect(res.status).toBe(200);
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        expect(res.headers.has(name)).toBe(false);
      }
    }
    await server.stop();
  });
});
