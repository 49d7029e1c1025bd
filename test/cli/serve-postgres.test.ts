import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { databaseForFile, pgAvailable } from '../support/pg';
import { bannerKeys, cleanup, http, runSvc, startServe, tempDir } from '../support/spawn';

// Issue 39: `svc serve --store postgres://…` serves the same API on PostgreSQL: a new schema is
// seeded with the demo workspace (the same keys as on a new data file), an acknowledged write is
// a committed row, and a restart, or a kill -9 under writes, loses nothing acknowledged.

afterEach(cleanup);

const JOB = {
  name: 'On PostgreSQL',
  address: '1 Main St',
  city: 'Dallas',
  state: 'TX',
  postal_code: '75201',
};

describe.skipIf(!pgAvailable)('svc serve --store postgres://…', () => {
  const db = databaseForFile('serve');

  const serve = async (schema: string) =>
    startServe(join(await tempDir(), 'node.json'), ['--store', db.url, '--store-schema', schema]);

  test('a new schema is seeded with the demo workspace; a write is a row, and a restart keeps it', async () => {
    const first = await serve('restart');
    expect(first.stdout()).toMatch(
      /^ {2}store {5}postgres:\/\/.*, schema restart \(new, seeded with a demo workspace\)$/m,
    );
    const keys = bannerKeys(first.stdout());
    expect(keys?.write).toBe('svc_live_3Ivd1mQheo1AFHrzdGyedOc0i1PhcPvn'); // as on a new data file
    const made = await http(`${first.url}/v1/jobs`, {
      method: 'POST',
      key: keys?.write ?? '',
      body: JOB,
    });
    expect(made.status).toBe(201);
    const row = await db.sql.query(
      "SELECT data->>'name' AS name FROM restart.records WHERE coll = 'jobs' AND id = $1",
      [made.body.id],
    );
    expect(row.rows).toEqual([{ name: JOB.name }]);
    expect((await first.stop()).code).toBe(0);
    const second = await serve('restart');
    expect(second.stdout()).not.toMatch(/\(new/);
    const got = await http(`${second.url}/v1/jobs/${made.body.id}`, { key: keys?.read ?? '' });
    expect(got.status).toBe(200);
    expect(got.body.name).toBe(JOB.name);
    await second.stop();
  });

  test('kill -9 under writes loses no acknowledged write', async () => {
    const server = await serve('crash');
    const key = bannerKeys(server.stdout())?.write ?? '';
    const acknowledged: string[] = [];
    let killed = false;
    const writer = async () => {
      while (!killed && acknowledged.length < 150) {
        const res = await http(`${server.url}/v1/jobs`, { method: 'POST', key, body: JOB }).catch(
          () => undefined,
        );
        if (res?.status === 201) {
          acknowledged.push(res.body.id);
        }
      }
    };
    const writers = [writer(), writer(), writer()];
    const deadline = Date.now() + 5000;
    while (acknowledged.length < 60 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await server.stop('SIGKILL');
    killed = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(20);
    const rows = await db.sql.query(
      "SELECT id FROM crash.records WHERE coll = 'jobs' AND id = ANY($1)",
      [acknowledged],
    );
    expect(rows.rows.length).toBe(acknowledged.length);
  });

  test('svc seed --store replaces what the schema holds with the seeded workspace: the keys of svc seed --data', async () => {
    const args = ['--seed', '7', '--profile', 'small', '--json'];
    const onFile = await runSvc(['seed', '--data', join(await tempDir(), 'f.json'), ...args]);
    const onPg = await runSvc(['seed', '--store', db.url, '--store-schema', 'seeded', ...args], {
      timeoutMs: 30_000,
    });
    expect(onPg.code, onPg.stderr).toBe(0);
    const fileKeys = JSON.parse(onFile.stdout).workspaces[0].keys;
    const pgOut = JSON.parse(onPg.stdout);
    expect(pgOut.schema).toBe('seeded');
    expect(pgOut.workspaces[0].keys).toEqual(fileKeys);
    const server = await serve('seeded');
    expect(server.stdout()).not.toMatch(/\(new/);
    expect(bannerKeys(server.stdout())?.write).toBe(fileKeys.write.key);
    const made = await http(`${server.url}/v1/jobs`, {
      method: 'POST',
      key: fileKeys.write.key,
      body: JOB,
    });
    expect(made.status).toBe(201);
    const whileServed = await runSvc(['seed', '--store', db.url, '--store-schema', 'seeded'], {
      timeoutMs: 30_000,
    });
    expect(whileServed.code).toBe(1);
    expect(whileServed.stderr).toMatch(
      /a svc is serving schema seeded of that database: stop it first/,
    );
    await server.stop();
    expect(
      (await runSvc(['seed', '--store', db.url, '--store-schema', 'seeded'], { timeoutMs: 30_000 }))
        .code,
    ).toBe(0);
    const gone = await db.sql.query('SELECT count(*)::int AS n FROM seeded.records WHERE id = $1', [
      made.body.id,
    ]);
    expect(gone.rows[0].n).toBe(0);
  });

  test('a second svc over a schema a svc serves joins it as another node; another schema of the database serves apart', async () => {
    const first = await serve('alone');
    const second = await serve('alone');
    const key = bannerKeys(first.stdout())?.write ?? '';
    const made = await http(`${first.url}/v1/jobs`, { method: 'POST', key, body: JOB });
    expect(made.status).toBe(201);
    const read = await http(`${second.url}/v1/jobs/${made.body.id}`, { key });
    // The same record; its URLs are the answering node's own address (decisions.md).
    expect([read.status, read.body.id, read.body.job_number]).toEqual([
      200,
      made.body.id,
      made.body.job_number,
    ]);
    expect(read.headers.get('x-svc-node')).not.toBe(made.headers.get('x-svc-node'));
    // Another schema is another store: seeded alike (the same demo keys), without that job.
    const beside = await serve('beside');
    expect((await http(`${beside.url}/v1/jobs/${made.body.id}`, { key })).status).toBe(404);
    await beside.stop();
    await second.stop();
    await first.stop();
  });

  test('the request log is kept beside --data, its folder made if missing, and read back after a restart', async () => {
    const data = join(await tempDir(), 'not', 'yet', 'node.json');
    const first = await startServe(data, ['--store', db.url, '--store-schema', 'logged']);
    const key = bannerKeys(first.stdout())?.write ?? '';
    expect((await http(`${first.url}/v1/ping`, { key })).status).toBe(200);
    await first.stop();
    expect(first.stderr()).not.toMatch(/request log/);
    const again = await startServe(data, ['--store', db.url, '--store-schema', 'logged']);
    const logged = await http(`${again.url}/__admin/requests?path=/v1/ping`);
    expect(logged.body.data).toHaveLength(1);
    await again.stop();
  });

  test('the banner never prints the database password', async () => {
    const url = new URL(db.url);
    url.password = 'not-printed-secret'; // the test cluster trusts: any password is taken
    const server = await startServe(join(await tempDir(), 'n.json'), [
      '--store',
      `${url}`,
      '--store-schema',
      'pw',
    ]);
    expect(server.stdout()).toMatch(/^ {2}store {5}postgres:\/\/svc:\*\*\*@/m);
    expect(server.stdout() + server.stderr()).not.toContain('not-printed-secret');
    await server.stop();
  });
});

describe('svc serve --store refuses what cannot be a store before it starts', () => {
  test('a URL that is no PostgreSQL URL, or a schema name that is no plain name: exit 2, one line', async () => {
    for (const args of [
      ['--store', 'mysql://x@127.0.0.1/db'],
      ['--store', 'postgres://127.0.0.1:1/db', '--store-schema', 'Bad-Name'],
    ]) {
      const run = await runSvc([
        'serve',
        '--port',
        '0',
        '--data',
        join(await tempDir(), 'n.json'),
        ...args,
      ]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  test('a database that cannot be reached: exit 1, one line saying so', async () => {
    const run = await runSvc(
      [
        'serve',
        '--port',
        '0',
        '--data',
        join(await tempDir(), 'n.json'),
        '--store',
        'postgres://svc@127.0.0.1:1/db',
      ],
      { timeoutMs: 20_000 },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^svc: .*ECONNREFUSED|connect/m);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  }, 30_000);
});
