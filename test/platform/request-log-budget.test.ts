import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { call, exportTo, replayJson, workspace } from '../replay/session';
import { type Harness, harness, type TestWorkspace } from '../support/harness';
import { linesOf, logCalls as logEach } from '../support/request-log';
import { cleanup, runSvc, startServe, tempDir } from '../support/spawn';

// The request log's byte budget (issue 21): both files together stay within it, rotation drops
// the oldest entries from the list and the export alike, a GET's list page is kept to 4 KB, and
// `svc serve --request-log-max-bytes` sets it. Bulk calls are handed to the log directly, as in
// request-log-files.test.ts (hundreds through HTTP each would take a while); what the log keeps
// is read through the control API.

const MiB = 2 ** 20;
/** An answer just under 16 KB, the most a line keeps of one whole: about 16.5 KB a line. */
const BIG = JSON.stringify({ pad: 'x'.repeat(16 * 1024 - 20) });

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-log-budget-'));
  file = join(dir, 'data.json.requests.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterAll(cleanup);

const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => 0,
  );
/** `n` calls of `ws` answered 200 with BIG. */
const logCalls = (h: Harness, ws: TestWorkspace, from: number, n: number) =>
  logEach(h, ws, from, n, { status: 200, response: () => ({ json: BIG }) });

/** Every entry the list answers, newest first, paged by cursor. */
async function listAll(h: Harness): Promise<{ id: string; path: string; response_body: string }[]> {
  const all = [];
  let cursor: string | null = null;
  do {
    const query: Record<string, string | number> = { limit: 200 };
    if (cursor) {
      query.cursor = cursor;
    }
    const page = (await h.admin.get('/requests', { query })).body;
    all.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return all;
}

describe('the request log byte budget', () => {
  test('both files together stay within the budget (plus one line) however many big answers are logged', async () => {
    const budget = MiB;
    const h = harness({ rateLimit: null, requestLogMaxBytes: budget }, { requestLogFile: file });
    const ws = await h.workspace();
    for (let round = 0; round < 6; round++) {
      logCalls(h, ws, round * 50, 50);
      await h.rt.requestLog.close(); // every line written: the files as they stand
      const [now, older] = [await sizeOf(file), await sizeOf(`${file}.1`)];
      expect(now + older).toBeLessThanOrEqual(budget + BIG.length + 1_000);
      expect(now).toBeLessThanOrEqual(budget / 2);
    }
    // 300 lines of 16.5 KB are 5 MB: the files were rotated many times, and hold the newest.
    const kept = [...(await linesOf(`${file}.1`)), ...(await linesOf(file))];
    expect(kept.length).toBeGreaterThan(40);
    expect(kept.length).toBeLessThan(300);
    expect(JSON.parse((kept.at(-1) as string).split('\t')[0] as string).path).toBe(
      '/v1/jobs/call-299',
    );
  });

  test('the newest entries stay listable whole, and a rotated entry is gone from the list and the export alike', async () => {
    const h = harness({ rateLimit: null, requestLogMaxBytes: MiB }, { requestLogFile: file });
    const ws = await h.workspace();
    logCalls(h, ws, 0, 200);
    const listed = await listAll(h);
    expect(listed[0]?.path).toBe('/v1/jobs/call-199');
    // newest first and consecutive: nothing in the middle is missing, and every one reads whole
    listed.forEach((entry, i) => {
      expect(entry.path).toBe(`/v1/jobs/call-${199 - i}`);
      expect(entry.response_body === BIG).toBe(true); // not toBe(BIG): a miss would print 16 KB
    });
    await h.rt.requestLog.close();
    // exactly the lines on disk: none listed that the files lost, none on disk left unlisted
    const onDisk = [...(await linesOf(`${file}.1`)), ...(await linesOf(file))];
    expect(listed).toHaveLength(onDisk.length);
    const exported = (await h.admin.get('/requests', { query: { format: 'jsonl' } })).text
      .trim()
      .split('\n')
      .map((line: string) => JSON.parse(line) as { id: string; path: string });
    expect(exported.map((e) => e.path)).toEqual(listed.map((e) => e.path).reverse());
    expect(exported.map((e) => e.id)).toEqual(listed.map((e) => e.id).reverse());
    // and after a restart, the same entries
    const again = harness({ rateLimit: null, requestLogMaxBytes: MiB }, { requestLogFile: file });
    expect((await listAll(again)).map((e) => e.path)).toEqual(listed.map((e) => e.path));
    await again.rt.requestLog.close();
  });

  test('files an earlier run left past the budget are dropped on start, the older first, never rewritten', async () => {
    const first = harness({ rateLimit: null, requestLogMaxBytes: null }, { requestLogFile: file });
    const ws = await first.workspace();
    logCalls(first, ws, 0, 100); // 1.6 MB in one file: no byte budget
    await first.rt.requestLog.close();
    expect(await sizeOf(file)).toBeGreaterThan(MiB);
    const second = harness({ rateLimit: null, requestLogMaxBytes: MiB }, { requestLogFile: file });
    expect(await listAll(second)).toEqual([]);
    logCalls(second, ws, 100, 3);
    expect((await listAll(second)).map((e) => e.path)).toEqual([
      '/v1/jobs/call-102',
      '/v1/jobs/call-101',
      '/v1/jobs/call-100',
    ]);
    await second.rt.requestLog.close();
    expect((await sizeOf(file)) + (await sizeOf(`${file}.1`))).toBeLessThan(MiB);
  });

  test('without a file, the lines kept in memory stay within the budget too, the newest kept', async () => {
    const h = harness({ rateLimit: null, requestLogMaxBytes: MiB });
    const ws = await h.workspace();
    logCalls(h, ws, 0, 200);
    const listed = await listAll(h);
    expect(listed[0]?.path).toBe('/v1/jobs/call-199');
    const bytes = listed.reduce((n, e) => n + e.response_body.length + 400, 0);
    expect(bytes).toBeLessThanOrEqual(MiB);
    expect(listed.length).toBeGreaterThan(50); // 1 MiB of 16.5 KB lines: about 60
    listed.forEach((entry, i) => {
      expect(entry.path).toBe(`/v1/jobs/call-${199 - i}`);
    });
  });
});

describe('what a line keeps of an answer', () => {
  test("a GET's list page keeps its first 4 KB; an error answer and a write's answer stay whole", async () => {
    const h = harness({ rateLimit: null }, { requestLogFile: file });
    const ws = await h.workspace({ profile: 'small' });
    const page = await ws.api.get('/jobs', { query: { limit: 20 } });
    expect(page.text.length).toBeGreaterThan(4 * 1024);
    const missing = await ws.api.get('/jobs/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    const note = 'n'.repeat(6_000); // a write's answer over 4 KB
    const made = await ws.api.post('/contacts', { first_name: 'Ada', notes: note });
    expect(made.status).toBe(201);
    const [write, error, list] = (await h.admin.get('/requests', { query: { limit: 3 } })).body
      .data;
    expect(list).toMatchObject({ path: '/v1/jobs', response_body_truncated: true });
    expect(list.response_body).toBe(page.text.slice(0, 4 * 1024));
    expect(error).toMatchObject({ status: 404, response_body_truncated: false });
    expect(JSON.parse(error.response_body).error.code).toBe('not_found');
    expect(write).toMatchObject({ status: 201, response_body_truncated: false });
    expect(JSON.parse(write.response_body)).toMatchObject({ id: made.body.id, notes: note });
    await h.rt.requestLog.close();
  });
});

describe('svc serve --request-log-max-bytes', () => {
  test.each([
    ['0', ['0']],
    ['under 1 MB', ['512KB']],
    ['a fraction', ['1.5MB']],
    ['an unknown unit', ['64XB']],
    ['no number', ['lots']],
    ['a negative', ['-1']],
  ])('%s exits 2 with exactly one line on stderr', async (_what, value) => {
    const cwd = await tempDir();
    const run = await runSvc(['serve', '--request-log-max-bytes', ...value], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^[^\n]+\n$/);
    expect(run.stderr).toContain('--request-log-max-bytes');
    expect(run.stdout).toBe('');
  });

  test('1MB holds the log files of a spawned svc within 1 MiB under a run of list pages, the newest listed', async () => {
    const data = join(await tempDir(), 'data.json');
    const server = await startServe(data, [
      '--request-log-max-bytes',
      '1MB',
      '--rate-limit',
      'off',
    ]);
    const key = /write key\s+(\S+)/.exec(server.stdout())?.[1] as string;
    // 400 pages kept at 4 KB each are 1.8 MB: past the budget
    for (let i = 0; i < 400; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          call('GET', `${server.url}/v1/jobs?limit=50&n=${i + j}`, key),
        ),
      );
    }
    await call('GET', `${server.url}/v1/jobs?limit=50&n=last`, key);
    const newest = (await fetch(`${server.url}/__admin/requests?limit=1`).then((r) =>
      r.json(),
    )) as {
      data: { query: Record<string, string> }[];
    };
    expect(newest.data[0]?.query).toEqual({ limit: '50', n: 'last' });
    expect((await server.stop()).code).toBe(0);
    const log = `${data}.requests.jsonl`;
    const total = (await sizeOf(log)) + (await sizeOf(`${log}.1`));
    expect(total).toBeGreaterThan(MiB / 2);
    expect(total).toBeLessThanOrEqual(MiB);
  }, 60_000);

  test('replay still works on the capped lines: list pages cut to 4 KB replay same, their cursors followed', async () => {
    const d = await tempDir();
    const [a, b] = await Promise.all([
      startServe(join(d, 'a.json'), ['--no-seed', '--request-log-max-bytes', '1MB']),
      startServe(join(d, 'b.json'), ['--no-seed']),
    ]);
    const ws = await workspace(a.url);
    for (let i = 0; i < 6; i++) {
      const made = await call('POST', `${a.url}/v1/jobs`, ws.key, {
        name: `Roof ${i}`,
        address: `${i} Elm St`,
      });
      expect(made.status).toBe(201);
    }
    let page = await call('GET', `${a.url}/v1/jobs?limit=3`, ws.key);
    const next = page.body.next_cursor as string;
    page = await call('GET', `${a.url}/v1/jobs?limit=3&cursor=${encodeURIComponent(next)}`, ws.key);
    expect(page.body.data).toHaveLength(3);
    const file = await exportTo(a.url, ws.id);
    const pages = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((e) => e.method === 'GET');
    expect(pages.map((e) => e.response_body_truncated)).toEqual([true, true]);
    const target = await workspace(b.url);
    const run = await replayJson(['--from', file, '--to', b.url, '--key', target.key, '--compare']);
    expect(run.report.requests.filter((r) => r.result !== 'same')).toEqual([]);
    expect(run.report).toMatchObject({ same: 8, different: 0, skipped: 0 });
    expect(run.code).toBe(0);
    // the second page was asked with the target's own cursor, learnt from its first page
    const sent = await fetch(`${b.url}/__admin/requests?format=jsonl&workspace_id=${target.id}`);
    expect(await sent.text()).not.toContain(next);
  }, 60_000);
});
