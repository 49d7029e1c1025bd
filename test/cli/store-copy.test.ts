import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { freshDatabase, pgAvailable } from '../support/pg';
import { bannerKeys, cleanup, http, runSvc, startServe, tempDir } from '../support/spawn';

// Issue 39: `svc store copy` moves a whole store from a data file to PostgreSQL and back: the
// same workspaces, keys and records, served alike from either.

afterEach(cleanup);

describe.skipIf(!pgAvailable)('svc store copy', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase('copy');
  });
  afterAll(async () => {
    await db?.drop();
  });

  test('a data file to PostgreSQL and back: the same keys and records, served alike', async () => {
    const dir = await tempDir();
    const file = join(dir, 'from.json');
    const seeded = await runSvc([
      'seed',
      '--data',
      file,
      '--seed',
      '3',
      '--profile',
      'small',
      '--json',
    ]);
    const keys = JSON.parse(seeded.stdout).workspaces[0].keys;
    const there = await runSvc(
      ['store', 'copy', '--from', file, '--to', db.url, '--store-schema', 'copied'],
      {
        timeoutMs: 60_000,
      },
    );
    expect(there.code, there.stderr).toBe(0);
    expect(there.stdout).toMatch(
      /^svc store copy: 1 workspaces, \d+ records from .* to postgres:\/\//,
    );
    const back = join(dir, 'back.json');
    const again = await runSvc(
      ['store', 'copy', '--from', db.url, '--to', back, '--store-schema', 'copied'],
      {
        timeoutMs: 60_000,
      },
    );
    expect(again.code, again.stderr).toBe(0);
    const jobsOf = async (server: Awaited<ReturnType<typeof startServe>>) => {
      expect(bannerKeys(server.stdout())?.write).toBe(keys.write.key);
      const page = await http(`${server.url}/v1/jobs?limit=100`, { key: keys.read.key });
      expect(page.status).toBe(200);
      await server.stop();
      // Records' URLs name the server that answered: each ran on a port of its own.
      return JSON.parse(JSON.stringify(page.body.data).replaceAll(server.url, '{app_url}'));
    };
    const original = await jobsOf(await startServe(file));
    const onPg = await jobsOf(
      await startServe(join(dir, 'node.json'), ['--store', db.url, '--store-schema', 'copied']),
    );
    const roundTrip = await jobsOf(await startServe(back));
    expect(original.length).toBeGreaterThan(0);
    expect(onPg).toEqual(original);
    expect(roundTrip).toEqual(original);
  }, 120_000);

  test('a source that is not there (a data file, a schema) is exit 1, and the destination is left as it was', async () => {
    const dir = await tempDir();
    const file = join(dir, 'kept.json');
    expect((await runSvc(['seed', '--data', file, '--profile', 'small', '--seed', '2'])).code).toBe(
      0,
    );
    const into = ['--to', db.url, '--store-schema', 'kept'];
    expect((await runSvc(['store', 'copy', '--from', file, ...into])).code).toBe(0);
    const missing = join(dir, 'typo.json');
    const fromFile = await runSvc(['store', 'copy', '--from', missing, ...into]);
    expect([fromFile.code, fromFile.stderr.trim()]).toEqual([1, `svc: no data file at ${missing}`]);
    expect(existsSync(`${missing}.journal`)).toBe(false);
    const fromSchema = await runSvc([
      'store',
      'copy',
      '--from',
      db.url,
      '--store-schema',
      'nosuch',
      '--to',
      join(dir, 'out.json'),
    ]);
    expect([fromSchema.code, fromSchema.stderr.trim()]).toEqual([
      1,
      'svc: that database has no schema nosuch',
    ]);
    const back = join(dir, 'back.json');
    const copied = await runSvc([
      'store',
      'copy',
      '--from',
      db.url,
      '--store-schema',
      'kept',
      '--to',
      back,
    ]);
    expect(copied.stdout).toMatch(/: 1 workspaces, [1-9]\d* records/);
  }, 60_000);
});

describe('svc store copy: bad usage', () => {
  test('no --from or --to, the same store twice, or a bad schema: exit 2, one line', async () => {
    for (const args of [
      ['store', 'copy', '--from', 'a.json'],
      ['store', 'copy', '--from', 'a.json', '--to', 'a.json'],
      [
        'store',
        'copy',
        '--from',
        'a.json',
        '--to',
        'postgres://x@127.0.0.1:1/d',
        '--store-schema',
        'No',
      ],
      ['store', 'copy', '--from', 'a.json', '--to', 'mysql://x@127.0.0.1/db'],
    ]) {
      const run = await runSvc(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
