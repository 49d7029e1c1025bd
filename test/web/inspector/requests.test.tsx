import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { curlOf, shellQuote } from '../../../src/web/inspector/curl';
import { type Harness, harness } from '../../support/harness';
import { ESCAPED, fromHtml, linksResolve, open, openOk, SCRIPT_NAME } from './support';

// The request log pages: the list with /__admin/requests's filters, a call's own page with its
// copy-as-curl, and the live stream the list's script reads.

const h: Harness = harness({ rateLimit: null });

const JOB = { name: 'Roof', address: '1 Main St' };

/** The ids of the calls the list shows, top to bottom. */
const idsOn = (html: string) =>
  [...html.matchAll(/href="\/inspector\/requests\/(rq_\d{10})"/g)].map((m) => m[1]);

/** The newest logged calls, as /__admin/requests gives them. */
async function logged(query: Record<string, string> = {}) {
  return (await h.admin.get('/requests', { query: { ...query, limit: 100 } })).body.data as {
    id: string;
    at: string;
    path: string;
    status: number;
  }[];
}

/** What argv a shell hands curl for `command`, with SVC_KEY set: proves the quoting. */
function argvOf(command: string): string[] {
  const out = execFileSync(
    'bash',
    ['-c', `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\nSVC_KEY=k_123\n${command}`],
    { encoding: 'utf8', timeout: 5000 },
  );
  return out.split('\0').slice(0, -1);
}

describe('/inspector/requests', () => {
  test('lists the calls newest first, as the log has them, with links that answer', async () => {
    const ws = await h.workspace();
    await ws.api.get('/jobs');
    await ws.api.post('/jobs', JOB);
    await ws.api.get('/jobs/00000000-0000-4000-8000-000000000000');
    const page = await openOk(h, `/inspector/requests?workspace_id=${ws.id}`);
    const expected = (await logged({ workspace_id: ws.id })).map((e) => e.id);
    expect(expected).toHaveLength(3);
    expect(idsOn(page.html)).toEqual(expected);
    expect(page.html).toContain('data-stream="/inspector/requests/stream?workspace_id=');
    await linksResolve(h, page);
  });

  test('filters as /__admin/requests does: status class, method, path prefix, key', async () => {
    const ws = await h.workspace();
    await ws.api.get('/jobs');
    await ws.api.post('/jobs', JOB);
    await ws.api.get('/jobs/00000000-0000-4000-8000-000000000000');
    await ws.read.get('/contacts');
    const queries: Record<string, string>[] = [
      { status: '4xx' },
      { method: 'post' },
      { path: '/jobs' },
      { path: '/v1/contacts' },
      { key_id: ws.keys.read.id },
    ];
    for (const query of queries) {
      const all = { workspace_id: ws.id, ...query };
      const page = await openOk(h, `/inspector/requests?${new URLSearchParams(all)}`);
      const want = (await logged(all)).map((e) => e.id);
      expect(want.length, JSON.stringify(query)).toBeGreaterThan(0);
      expect(idsOn(page.html), JSON.stringify(query)).toEqual(want);
    }
  });

  test('pages older calls behind a link, 50 a page', async () => {
    const ws = await h.workspace();
    for (let i = 0; i < 55; i++) {
      await ws.read.get('/jobs', { query: { limit: 1 } });
    }
    const first = await openOk(h, `/inspector/requests?workspace_id=${ws.id}`);
    expect(idsOn(first.html)).toHaveLength(50);
    const older = /href="(\/inspector\/requests\?[^"]*cursor=[^"]*)">Older/.exec(first.html)?.[1];
    expect(older).toBeDefined();
    const second = await openOk(h, (older as string).replaceAll('&amp;', '&'));
    expect(idsOn(second.html)).toHaveLength(5);
    // Only the first page is live: older rows never get new ones above them.
    expect(second.html).not.toContain('data-stream');
  });

  test('a cursor the log never issued is said on the page, 400, not a 500', async () => {
    const page = await open(h, '/inspector/requests?cursor=nonsense');
    expect(page.status).toBe(400);
    expect(page.html).toContain('cursor was not issued by this request log');
  });
});

describe('/inspector/requests/{id}', () => {
  test('shows both bodies (JSON pretty, escaped), the headers kept, the key and the status', async () => {
    const ws = await h.workspace();
    await ws.api.post(
      '/jobs',
      { ...JOB, name: SCRIPT_NAME },
      { headers: { 'Idempotency-Key': 'idem-1' } },
    );
    const [entry] = await logged({ workspace_id: ws.id });
    const page = await openOk(h, `/inspector/requests/${entry?.id}`);
    expect(page.html).toContain(ESCAPED);
    expect(page.html).not.toContain(SCRIPT_NAME);
    expect(page.html).toContain('  &quot;name&quot;: &quot;&lt;script&gt;');
    expect(page.html).toContain('idempotency-key');
    expect(page.html).toContain('idem-1');
    expect(page.html).toContain('<span class="badge ok">201</span>');
    expect(page.html).toContain(ws.keys.write.id);
    await linksResolve(h, page);
  });

  test('an id the log does not hold is a 404 page', async () => {
    expect((await open(h, '/inspector/requests/rq_9999999999')).status).toBe(404);
    expect((await open(h, '/inspector/requests/nonsense')).status).toBe(404);
  });

  test('copy as curl is a command a shell hands curl exactly: method, URL, headers, body', async () => {
    const ws = await h.workspace();
    const body = { ...JOB, name: `It's "quoted" $HOME \`x\` \\ ünï` };
    await ws.api.post('/jobs', body, {
      headers: { 'Idempotency-Key': 'k-1' },
      query: { expand: 'contact' },
      invalid: true,
    });
    const [entry] = await logged({ workspace_id: ws.id });
    const page = await openOk(h, `/inspector/requests/${entry?.id}`);
    const command = /<pre id="curl">([^<]*)<\/pre>/.exec(page.html)?.[1] ?? '';
    const argv = argvOf(fromHtml(command));
    expect(argv).toEqual([
      '-X',
      'POST',
      'http://localhost/v1/jobs?expand=contact',
      '-H',
      'Authorization: Bearer k_123',
      '-H',
      'content-type: application/json',
      '-H',
      'idempotency-key: k-1',
      '--data-raw',
      JSON.stringify(body),
    ]);
  });

  test('a GET is plain curl; an upload and a cut body say what the command cannot carry', () => {
    const base = {
      method: 'GET',
      path: '/v1/jobs',
      query: { q: "o'brien & co" },
      request_headers: {},
      request_body: null,
      request_body_truncated: false,
      credential_kind: 'api_key',
    };
    const get = curlOf(base, 'http://127.0.0.1:4010');
    expect(argvOf(get.command)).toEqual([
      'http://127.0.0.1:4010/v1/jobs?q=o%27brien+%26+co',
      '-H',
      'Authorization: Bearer k_123',
    ]);
    expect(get.caveats).toEqual([]);
    const upload = curlOf(
      {
        ...base,
        method: 'POST',
        request_headers: { 'content-type': 'multipart/form-data; boundary=x' },
        request_body: '[multipart body, 1234 bytes]',
      },
      'http://h',
    );
    expect(upload.command).not.toContain('multipart');
    expect(upload.caveats[0]).toContain('-F');
    const cut = curlOf(
      { ...base, method: 'PATCH', request_body: '{"a":', request_body_truncated: true },
      'http://h',
    );
    expect(cut.caveats[0]).toContain('16 KB');
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });
});

describe('/inspector/requests/stream', () => {
  /** Reads the stream until an event of `name` comes, at most `ms`. */
  async function nextEvent(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    name: string,
    ms = 5000,
  ) {
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('no event in time')), ms),
        ),
      ]);
      if (chunk.done) {
        break;
      }
      text += decoder.decode(chunk.value);
      const m = new RegExp(`event: ${name}\\nid: (\\S+)\\ndata: (.*)\\n\\n`).exec(text);
      if (m) {
        return { id: m[1], data: JSON.parse(m[2] ?? '') };
      }
    }
    throw new Error(`no ${name} event: ${text}`);
  }

  test('sends each new call its filter matches as an event, and only those', async () => {
    const ws = await h.workspace({ name: SCRIPT_NAME });
    const other = await h.workspace();
    const res = await h.request(`/inspector/requests/stream?workspace_id=${ws.id}&status=4xx`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    try {
      await other.api.get('/jobs/00000000-0000-4000-8000-000000000000'); // another workspace
      await ws.api.get('/jobs'); // a 200
      await ws.api.get('/jobs/00000000-0000-4000-8000-000000000000');
      const event = await nextEvent(reader, 'request');
      const [newest] = await logged({ workspace_id: ws.id });
      expect(event.id).toBe(newest?.id);
      expect(event.data).toMatchObject({
        id: newest?.id,
        method: 'GET',
        target: '/v1/jobs/00000000-0000-4000-8000-000000000000',
        status: 404,
        workspace_id: ws.id,
        workspace: SCRIPT_NAME, // text: the script sets it with textContent
        key_id: ws.keys.write.id,
      });
    } finally {
      await reader.cancel();
    }
  });

  test('a stream reopened with Last-Event-ID first sends the calls it missed, oldest first', async () => {
    const ws = await h.workspace();
    await ws.api.get('/ping');
    const [seen] = await logged({ workspace_id: ws.id });
    await ws.api.get('/jobs');
    await ws.api.get('/contacts');
    const res = await h.request(`/inspector/requests/stream?workspace_id=${ws.id}`, {
      headers: { 'Last-Event-ID': String(seen?.id) },
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    try {
      const first = await nextEvent(reader, 'request');
      expect(first.data.target).toBe('/v1/jobs');
    } finally {
      await reader.cancel();
    }
  });
});

describe('/inspector/requests filters as /__admin/requests does', () => {
  test('since and until narrow the list; a bad value is a 400 page naming it', async () => {
    const ws = await h.workspace();
    await ws.api.get('/ping');
    const [first] = await logged({ workspace_id: ws.id });
    await new Promise((r) => setTimeout(r, 5));
    await ws.api.get('/jobs');
    const after = new Date(Date.parse(String(first?.at)) + 1).toISOString();
    const since = await open(h, `/inspector/requests?workspace_id=${ws.id}&since=${after}`);
    expect(since.status).toBe(200);
    expect(since.html).toContain('/v1/jobs');
    expect(since.html).not.toContain('/v1/ping');
    const until = await open(h, `/inspector/requests?workspace_id=${ws.id}&until=${after}`);
    expect(until.html).toContain('/v1/ping');
    expect(until.html).not.toContain('>/v1/jobs<');
    for (const bad of [
      'status=abc',
      'fault=nope',
      'since=garbage',
      `since=${after}&until=${after}`,
    ]) {
      const page = await open(h, `/inspector/requests?${bad}`);
      expect(page.status, bad).toBe(400);
      expect(page.html, bad).toContain('role="alert"');
    }
  });
});
