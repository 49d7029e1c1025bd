import { appendFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { NewEntry } from '../../src/platform/request-log/log';
import { MAX_ENTRIES } from '../../src/platform/request-log/log';
import { type Harness, harness } from '../support/harness';
import { linesOf, logCalls } from '../support/request-log';

// The request log on disk: `<file>` and the generation before it, `<file>.1`. Thousands of calls
// are handed to the log directly (a request each through HTTP would take minutes); what the log
// answers is read through the control API.

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-log-files-'));
  file = join(dir, 'data.json.requests.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * The start of `sent` a line keeps when it cuts it at `most` bytes: a prefix, within them, and
 * no room for the character after it (so never half of one).
 */
function expectCut(kept: string, sent: string, most: number): void {
  expect(sent.startsWith(kept)).toBe(true);
  expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(most);
  const next = String.fromCodePoint(sent.codePointAt(kept.length) as number);
  expect(Buffer.byteLength(kept + next)).toBeGreaterThan(most);
}

async function newest(h: Harness, limit = 1): Promise<{ path: string; response_body: string }[]> {
  return (await h.admin.get('/requests', { query: { limit } })).body.data;
}

describe('the request log files', () => {
  test(`keep at most ${MAX_ENTRIES.toLocaleString('en-US')} calls, the newest, and answer them whole`, async () => {
    const h = harness({ rateLimit: null }, { requestLogFile: file });
    const ws = await h.workspace();
    logCalls(h, ws, 0, MAX_ENTRIES + 2_500);
    const { body } = await h.admin.get('/requests', { query: { limit: 200 } });
    expect(body.data[0]).toMatchObject({ path: `/v1/jobs/call-${MAX_ENTRIES + 2_499}` });
    expect(JSON.parse(body.data[0].response_body)).toEqual({ call: MAX_ENTRIES + 2_499 });
    // The oldest kept is call 2,500: page to the end by cursor.
    let cursor: string | null = body.next_cursor;
    let last = body.data.at(-1);
    let seen = body.data.length;
    while (cursor) {
      const page = (await h.admin.get('/requests', { query: { limit: 200, cursor } })).body;
      seen += page.data.length;
      last = page.data.at(-1) ?? last;
      cursor = page.next_cursor;
    }
    expect(seen).toBe(MAX_ENTRIES);
    expect(last).toMatchObject({ path: '/v1/jobs/call-2500' });
    expect(JSON.parse(last.response_body)).toEqual({ call: 2_500 });
    await h.rt.requestLog.close();
  }, 60_000);

  test('past 20,000 lines the file is set aside as <file>.1 and a new one starts: no file grows without bound', async () => {
    const h = harness({ rateLimit: null }, { requestLogFile: file });
    const ws = await h.workspace();
    logCalls(h, ws, 0, MAX_ENTRIES);
    await h.rt.requestLog.close(); // the lines are in the file; the log goes on after
    logCalls(h, ws, MAX_ENTRIES, 10);
    const [top] = await newest(h);
    expect(top?.path).toBe(`/v1/jobs/call-${MAX_ENTRIES + 9}`);
    await h.rt.requestLog.close();
    expect(await linesOf(`${file}.1`)).toHaveLength(MAX_ENTRIES);
    expect(await linesOf(file)).toHaveLength(10);
    // Calls in both files are read back whole, the older from <file>.1.
    const second = harness({ rateLimit: null }, { requestLogFile: file });
    const { body } = await second.admin.get('/requests', { query: { limit: 12 } });
    expect(body.data.map((e: { path: string }) => e.path)).toEqual(
      Array.from({ length: 12 }, (_, i) => `/v1/jobs/call-${MAX_ENTRIES + 9 - i}`),
    );
    expect(JSON.parse(body.data[11].response_body)).toEqual({ call: MAX_ENTRIES - 2 });
    await second.rt.requestLog.close();
  }, 60_000);

  test('a last line cut short by a crash is skipped, and the next call starts a line of its own', async () => {
    const first = harness({ rateLimit: null }, { requestLogFile: file });
    const ws = await first.workspace();
    await ws.api.get('/ping');
    await first.rt.requestLog.close();
    await appendFile(file, '{"id":"rq_0000000002","at":"20');
    const second = harness({ rateLimit: null }, { requestLogFile: file });
    await (await second.workspace()).api.get('/users');
    const data = await newest(second, 10);
    expect(data.map((e) => e.path)).toEqual(['/v1/users', '/v1/ping']);
    await second.rt.requestLog.close();
    const third = harness({ rateLimit: null }, { requestLogFile: file });
    expect((await newest(third, 10)).map((e) => e.path)).toEqual(['/v1/users', '/v1/ping']);
    // A line is the entry's JSON, then a tab and the response body as sent.
    const [entry, body] = ((await linesOf(file)).at(-1) as string).split('\t');
    expect(JSON.parse(entry as string)).toMatchObject({ path: '/v1/users' });
    expect(JSON.parse(body as string)).toMatchObject({ object: 'list' });
    await third.rt.requestLog.close();
  });

  test('answers come back exactly as sent: JSON cut inside a string, text with tabs and newlines', async () => {
    const h = harness({ rateLimit: null }, { requestLogFile: file });
    const ws = await h.workspace();
    const cut = JSON.stringify({ note: 'é\t"x"\n'.repeat(4_000) });
    const sent = [
      { json: cut },
      { text: 'first\tsecond\nthird line' },
      { text: 'tab\there' },
      { json: '' },
    ];
    logCalls(h, ws, 0, sent.length, { response: (i) => sent[i] as NewEntry['response'] });
    await h.rt.requestLog.close();
    const again = harness({ rateLimit: null }, { requestLogFile: file });
    const data = (await again.admin.get('/requests', { query: { limit: 10 } })).body.data;
    expect(data.slice(0, 3).map((e: { response_body: string | null }) => e.response_body)).toEqual([
      null,
      'tab\there',
      'first\tsecond\nthird line',
    ]);
    expectCut(data[3].response_body, cut, 16 * 1024);
    expect(data[3].response_body_truncated).toBe(true);
    await again.rt.requestLog.close();
  });

  test('answers are cut at 16 KB of UTF-8 (a list page at 4 KB), never inside a character', async () => {
    const h = harness({ rateLimit: null }, { requestLogFile: file });
    const ws = await h.workspace();
    const record = JSON.stringify({ id: 'inv_1', note: 'Zoë paid €20' });
    const page = JSON.stringify({ object: 'list', data: ['x'.repeat(6_000)], has_more: false });
    const big = JSON.stringify({ note: 'é'.repeat(20_000) });
    const emoji = JSON.stringify({ note: `x${'😀'.repeat(5_000)}` });
    const sent = [record, 'line\nbreak', page, big, emoji, ''].map((json) => ({ json }));
    logCalls(h, ws, 0, sent.length, {
      status: 200,
      response: (i) => sent[i] as NewEntry['response'],
    });
    await h.rt.requestLog.close();
    const again = harness({ rateLimit: null }, { requestLogFile: file });
    const data = (await again.admin.get('/requests', { query: { limit: 10 } })).body.data;
    const kept = data
      .reverse()
      .map((e: { response_body: string | null; response_body_truncated: boolean }) => [
        e.response_body,
        e.response_body_truncated,
      ]);
    expect(kept.slice(0, 3)).toEqual([
      [record, false],
      ['line\nbreak', false],
      [page.slice(0, 4 * 1024), true], // a GET's list page keeps its first 4 KB
    ]);
    // Cut at 16 KB of UTF-8, before the character that would pass them: 'é' is 2 bytes, 😀 4.
    expectCut(kept[3][0], big, 16 * 1024);
    expectCut(kept[4][0], emoji, 16 * 1024);
    expect([kept[3][1], kept[4][1], kept[5]]).toEqual([true, true, [null, false]]);
    await again.rt.requestLog.close();
  });

  test('a log whose file cannot be written says so once, and keeps the calls after in memory', async () => {
    const said: string[] = [];
    const unwritable = join(dir, 'no-such-dir', 'data.json.requests.jsonl');
    const h = harness(
      { rateLimit: null, log: (line) => said.push(line) },
      { requestLogFile: unwritable },
    );
    const ws = await h.workspace();
    logCalls(h, ws, 0, 3);
    await expect.poll(() => said.length).toBe(1);
    expect(said[0]).toContain(`cannot write the request log ${unwritable}`);
    logCalls(h, ws, 3, 2);
    const paths = (await newest(h, 10)).map((e) => e.path);
    // The three whose write failed are nowhere; the two after are answered from memory.
    expect(paths).toEqual(['/v1/jobs/call-4', '/v1/jobs/call-3']);
    logCalls(h, ws, 5, 1);
    expect((await newest(h, 10)).map((e) => e.path)).toHaveLength(3);
    expect(said).toHaveLength(1);
  });

  test('once every call has passed its 14 days, the purge deletes the files', async () => {
    const h = harness({ rateLimit: null }, { requestLogFile: file });
    const ws = await h.workspace();
    await ws.api.get('/ping');
    await h.rt.requestLog.close();
    expect((await stat(file)).size).toBeGreaterThan(0);
    await h.admin.post('/clock', { advance_seconds: 15 * 86_400 });
    await h.rt.requestLog.close();
    await expect(stat(file)).rejects.toThrow();
    expect(await newest(h, 10)).toEqual([]);
  });
});
