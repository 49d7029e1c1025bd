// svc replay with real processes (issue 18, Done when): a session recorded on svc A replays to a
// fresh workspace on svc B `same` throughout, from A's address or from an export file; against C,
// started with --rate-limit 1, --compare names the 429 and exits 1. Only processes started here
// are ever signalled (test/support/spawn.ts).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cleanup, runSvc, type Server, startServe, tempDir } from '../support/spawn';
import {
  call,
  exportTo,
  type Recorded,
  recordSession,
  replayJson,
  SESSION_LENGTH,
  workspace,
} from './session';

let a: Server;
let b: Server;
let c: Server;
let session: Recorded;

beforeAll(async () => {
  const dir = await tempDir();
  [a, b, c] = await Promise.all([
    startServe(join(dir, 'a.json'), ['--no-seed']),
    startServe(join(dir, 'b.json'), ['--no-seed']),
    startServe(join(dir, 'c.json'), ['--no-seed', '--rate-limit', '1']),
  ]);
  session = await recordSession(a.url);
}, 30_000);

afterAll(cleanup);

describe('svc replay --compare', () => {
  test('a recorded session replayed from a svc to a fresh svc is every request same, exit 0', async () => {
    const target = await workspace(b.url);
    const run = await runSvc([
      'replay',
      '--from',
      a.url,
      '--workspace',
      session.ws.id,
      '--to',
      b.url,
      '--key',
      target.key,
      '--compare',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(SESSION_LENGTH + 1);
    for (const line of lines.slice(0, -1)) {
      expect(line).toMatch(
        /^(GET|POST|PATCH|DELETE) \/v1\/\S+ {2}(\d{3}) \(recorded \2\) {2}same$/,
      );
    }
    expect(lines.at(-1)).toBe(`${SESSION_LENGTH} same, 0 different, 0 skipped`);
  });

  test('ids follow: the update and delete hit the ids the replayed creates made', async () => {
    const target = await workspace(b.url);
    const run = await runSvc([
      'replay',
      '--from',
      a.url,
      '--workspace',
      session.ws.id,
      '--to',
      `${b.url}/v1/`,
      '--key',
      target.key,
    ]);
    expect(run.code).toBe(0);
    const log = await fetch(`${b.url}/__admin/requests?format=jsonl&workspace_id=${target.id}`);
    const sent = (await log.text())
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            method: string;
            path: string;
            request_body: string | null;
            response_body: string;
          },
      );
    const [created, retried] = sent.filter((e) => e.method === 'POST' && e.path === '/v1/contacts');
    const newContact = JSON.parse(created?.response_body ?? '{}').id as string;
    expect(newContact).not.toBe(session.contactId);
    // the idempotent retry answered the same new contact
    expect(JSON.parse(retried?.response_body ?? '{}').id).toBe(newContact);
    const job = sent.find((e) => e.method === 'POST' && e.path === '/v1/jobs');
    expect(JSON.parse(job?.request_body ?? '{}').homeowner_id).toBe(newContact);
    const newJob = JSON.parse(job?.response_body ?? '{}').id as string;
    expect(sent.map((e) => `${e.method} ${e.path}`)).toEqual(
      expect.arrayContaining([
        `PATCH /v1/contacts/${newContact}`,
        `DELETE /v1/contacts/${newContact}`,
        `PATCH /v1/jobs/${newJob}`,
        `DELETE /v1/jobs/${newJob}`,
      ]),
    );
    expect(JSON.stringify(sent)).not.toContain(session.contactId);
    expect((await call('GET', `${b.url}/v1/contacts/${newContact}`, target.key)).status).toBe(404);
  });

  test('the same session from a jsonl export file is every request same, exit 0', async () => {
    const file = await exportTo(a.url, session.ws.id);
    const target = await workspace(b.url);
    const run = await replayJson(['--from', file, '--to', b.url, '--key', target.key, '--compare']);
    expect(run.code).toBe(0);
    expect(run.report).toMatchObject({ same: SESSION_LENGTH, different: 0, skipped: 0 });
  });

  test('against a server started with --rate-limit 1, --compare names the 429 and exits 1', async () => {
    const target = await workspace(c.url);
    const run = await runSvc([
      'replay',
      '--from',
      a.url,
      '--workspace',
      session.ws.id,
      '--to',
      c.url,
      '--key',
      target.key,
      '--compare',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('POST /v1/contacts  429 (recorded 201)  different');
    expect(run.stdout).toContain('    status: 429, recorded 201');
    expect(run.stdout).toContain('    error code: rate_limited, recorded none');
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^1 same, 9 different, 0 skipped$/);
  });

  test('--junit writes a file that parses: a testcase a request, the differences as failures', async () => {
    const target = await workspace(c.url);
    const junit = join(await tempDir(), 'replay.xml');
    const run = await runSvc([
      'replay',
      '--from',
      a.url,
      '--workspace',
      session.ws.id,
      '--to',
      c.url,
      '--key',
      target.key,
      '--compare',
      '--junit',
      junit,
    ]);
    expect(run.code).toBe(1);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      await readFile(junit, 'utf8'),
    );
    const suite = doc.testsuites.testsuite;
    expect(suite).toMatchObject({ name: 'replay', tests: String(SESSION_LENGTH), failures: '9' });
    expect(suite.testcase[1].failure.message).toBe('status: 429, recorded 201');
  });

  test('without --compare: a line a request with both statuses, exit 0 even when they differ', async () => {
    const target = await workspace(c.url);
    const run = await runSvc([
      'replay',
      '--from',
      a.url,
      '--workspace',
      session.ws.id,
      '--to',
      c.url,
      '--key',
      target.key,
    ]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe('POST /v1/contacts  201 (recorded 201)');
    expect(lines[1]).toBe('POST /v1/contacts  429 (recorded 201)');
    expect(lines.at(-1)).toBe(`${SESSION_LENGTH} sent, 0 skipped`);
  });

  test('--json: {requests: [{method, path, recorded_status, status, result, differences, reason}], same, different, skipped}', async () => {
    const target = await workspace(c.url);
    const run = await replayJson([
      '--from',
      a.url,
      '--workspace',
      session.ws.id,
      '--to',
      c.url,
      '--key',
      target.key,
      '--compare',
    ]);
    expect(run.code).toBe(1);
    expect(Object.keys(run.report)).toEqual(['requests', 'same', 'different', 'skipped']);
    expect(run.report.requests[1]).toEqual({
      method: 'POST',
      path: '/v1/contacts',
      recorded_status: 201,
      status: 429,
      result: 'different',
      differences: ['status: 429, recorded 201', 'error code: rate_limited, recorded none'],
      reason: null,
    });
  });

  test('a target that cannot be reached: no answer, the rest not sent, exit 1', async () => {
    const dir = await tempDir();
    const gone = await startServe(join(dir, 'gone.json'), ['--no-seed']);
    const url = gone.url;
    await gone.stop();
    const run = await replayJson([
      '--from',
      a.url,
      '--workspace',
      session.ws.id,
      '--to',
      url,
      '--key',
      'svc_live_x',
    ]);
    expect(run.code).toBe(1);
    expect(run.report.requests[0]).toMatchObject({
      status: null,
      result: 'different',
      differences: ['no answer: connection refused'],
    });
    expect(run.report.requests[1]).toMatchObject({
      result: 'skipped',
      reason: 'not sent: an earlier request got no answer from the target',
    });
  });
});

describe('what svc replay selects', () => {
  test('--path takes a prefix, with or without /v1', async () => {
    for (const path of ['/jobs', '/v1/jobs']) {
      const target = await workspace(b.url);
      const run = await replayJson([
        '--from',
        a.url,
        '--workspace',
        session.ws.id,
        '--path',
        path,
        '--to',
        b.url,
        '--key',
        target.key,
      ]);
      expect(run.report.requests.map((r) => r.method)).toEqual(['POST', 'PATCH', 'GET', 'DELETE']);
      expect(run.report.requests.every((r) => r.path.startsWith('/v1/jobs'))).toBe(true);
    }
  });

  test('--workspace takes only that recorded workspace', async () => {
    const other = await workspace(a.url);
    expect((await call('GET', `${a.url}/v1/ping`, other.key)).status).toBe(200);
    const target = await workspace(b.url);
    const run = await replayJson([
      '--from',
      a.url,
      '--workspace',
      other.id,
      '--to',
      b.url,
      '--key',
      target.key,
    ]);
    expect(run.report.requests.map((r) => r.path)).toEqual(['/v1/ping']);
  });

  test('--since and --until select by the recorded time: at or after, before; sent oldest first', async () => {
    const file = await exportTo(a.url, session.ws.id);
    const entries = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // give the entries known times, and write them newest first: replay sorts them
    entries.forEach((e, i) => {
      e.at = `2026-03-01T00:00:0${i}.000Z`;
    });
    await writeFile(
      file,
      `${entries
        .reverse()
        .map((e) => JSON.stringify(e))
        .join('\n')}\n`,
    );
    const target = await workspace(b.url);
    const run = await replayJson([
      '--from',
      file,
      '--to',
      b.url,
      '--key',
      target.key,
      '--since',
      '2026-03-01T00:00:00Z',
      '--until',
      '2026-03-01T00:00:03Z',
      '--compare',
    ]);
    expect(run.report.requests.map((r) => `${r.method} ${r.recorded_status}`)).toEqual([
      'POST 201',
      'POST 201',
      'PATCH 200',
    ]);
    expect(run.code).toBe(0);
  });

  test('truncated and multipart bodies, and unmapped keys, are skipped with the reason', async () => {
    const file = await exportTo(a.url, session.ws.id);
    const [first] = (await readFile(file, 'utf8'))
      .split('\n')
      .map((l) => (l ? JSON.parse(l) : null));
    const lines = [
      {
        ...first,
        path: '/v1/notes',
        request_body: '{"content":"aaa',
        request_body_truncated: true,
      },
      {
        ...first,
        path: '/v1/files',
        request_headers: { 'content-type': 'multipart/form-data; boundary=x' },
        request_body: '[multipart body, 1234 bytes]',
      },
      { ...first, key_id: 'key_unknown' },
      first,
    ];
    await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const target = await workspace(b.url);
    const run = await replayJson([
      '--from',
      file,
      '--to',
      b.url,
      '--key-map',
      `${session.ws.keyId}=${target.key}`,
      '--compare',
    ]);
    expect(run.code).toBe(0);
    expect(run.report.requests.map((r) => [r.result, r.reason])).toEqual([
      ['skipped', 'the log truncated the request body (over 16 KB)'],
      ['skipped', 'a multipart upload: the log keeps no file bytes'],
      [
        'skipped',
        `no key for the recorded key key_unknown (give --key-map key_unknown=KEY or --key)`,
      ],
      ['same', null],
    ]);
    expect(run.report).toMatchObject({ same: 1, different: 0, skipped: 3 });
  });

  test('--key-map sends each recorded key with its own: a read key stays read-only', async () => {
    const source = await workspace(a.url);
    expect(
      (await call('POST', `${a.url}/v1/contacts`, source.readKey, { first_name: 'No' })).status,
    ).toBe(403);
    const target = await workspace(b.url);
    const mapped = await replayJson([
      '--from',
      a.url,
      '--workspace',
      source.id,
      '--to',
      b.url,
      '--key-map',
      `${source.readKeyId}=${target.readKey}`,
      '--compare',
    ]);
    expect(mapped.report.requests[0]).toMatchObject({ status: 403, result: 'same' });
    // the write key in its place is a difference --compare names
    const wrong = await replayJson([
      '--from',
      a.url,
      '--workspace',
      source.id,
      '--to',
      b.url,
      '--key',
      target.key,
      '--compare',
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.report.requests[0]?.differences[0]).toBe('status: 201, recorded 403');
  });
});

describe('svc replay of a list paged with cursors', () => {
  /** On A: five contacts, then GET /v1/contacts?limit=2 and its next two pages by next_cursor. */
  const recordPaging = async () => {
    const ws = await workspace(a.url);
    const v1 = `${a.url}/v1`;
    for (const first_name of ['Ada', 'Bea', 'Cy', 'Di', 'Ed']) {
      expect((await call('POST', `${v1}/contacts`, ws.key, { first_name })).status).toBe(201);
    }
    const cursors: string[] = [];
    let page = await call('GET', `${v1}/contacts?limit=2`, ws.key);
    while (page.body.next_cursor) {
      cursors.push(page.body.next_cursor);
      page = await call(
        'GET',
        `${v1}/contacts?limit=2&cursor=${encodeURIComponent(page.body.next_cursor)}`,
        ws.key,
      );
      expect(page.status).toBe(200);
    }
    expect(cursors).toHaveLength(2);
    return { ws, cursors };
  };

  test('cursors follow: a recorded session paging through a list replays same end to end, each page its own line', async () => {
    const { ws, cursors } = await recordPaging();
    const target = await workspace(b.url);
    const junit = join(await tempDir(), 'paging.xml');
    const args = ['--from', a.url, '--workspace', ws.id, '--to', b.url, '--key', target.key];
    const run = await replayJson([...args, '--compare', '--junit', junit]);
    expect(run.report.requests.filter((r) => r.result !== 'same')).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.report).toMatchObject({ same: 8, different: 0, skipped: 0 });
    // the pages are told apart by their query, the recorded cursor as recorded
    const pages = run.report.requests.slice(5).map((r) => `${r.method} ${r.path}`);
    expect(pages).toEqual([
      'GET /v1/contacts?limit=2',
      `GET /v1/contacts?limit=2&cursor=${encodeURIComponent(cursors[0] ?? '')}`,
      `GET /v1/contacts?limit=2&cursor=${encodeURIComponent(cursors[1] ?? '')}`,
    ]);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      await readFile(junit, 'utf8'),
    );
    expect(doc.testsuites.testsuite.testcase[6].name).toBe(`7 ${pages[1]}`);
    // the target was asked with its own cursors, never the recorded ones
    const log = await fetch(`${b.url}/__admin/requests?format=jsonl&workspace_id=${target.id}`);
    const sent = await log.text();
    for (const cursor of cursors) {
      expect(sent).not.toContain(cursor);
    }
    // the text lines too, to a fresh workspace again
    const again = await workspace(b.url);
    const text = await runSvc(['replay', ...args.slice(0, -1), again.key, '--compare']);
    expect(text.stdout).toContain(`${pages[2]}  200 (recorded 200)  same`);
  });

  test('a page the log truncated still passes its cursor on: the next page is asked with the target’s', async () => {
    const { ws } = await recordPaging();
    const file = await exportTo(a.url, ws.id);
    const entries = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const first = entries.find((e) => e.method === 'GET' && e.query.cursor === undefined);
    first.response_body = first.response_body.slice(0, 40);
    first.response_body_truncated = true;
    await writeFile(file, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const target = await workspace(b.url);
    const run = await replayJson(['--from', file, '--to', b.url, '--key', target.key, '--compare']);
    expect(run.report.requests.filter((r) => r.result !== 'same')).toEqual([]);
    expect(run.code).toBe(0);
  });
});
