import { describe, expect, test } from 'vitest';
import { harness, type Json } from '../support/harness';

// DESIGN, Control API: GET /__admin/requests?format=jsonl exports the request log as JSON lines
// in the list's entry shape, for `svc replay --from FILE` (decisions.md, Request log).

const setup = async () => {
  const h = harness({ rateLimit: null });
  return { h, ws: await h.workspace({ profile: 'empty' }) };
};

const lines = (text: string): Json[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));

describe('GET /__admin/requests?format=jsonl', () => {
  test('is every matching entry, oldest first, one JSON object a line, as application/x-ndjson', async () => {
    const { h, ws } = await setup();
    await ws.api.get('/ping');
    await ws.api.post('/contacts', { first_name: 'Ada' });
    await ws.api.get('/contacts');
    const res = await h.admin.get('/requests', { query: { format: 'jsonl' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/x-ndjson');
    expect(res.text.endsWith('\n')).toBe(true);
    const exported = lines(res.text);
    expect(exported.map((e) => `${e.method} ${e.path}`)).toEqual([
      'GET /v1/ping',
      'POST /v1/contacts',
      'GET /v1/contacts',
    ]);
    // the same entries as the list, in the list's shape, newest first there
    const listed = (await h.admin.get('/requests')).body.data;
    expect(exported).toEqual([...listed].reverse());
  });

  test('is not paged: more than 200 entries come whole, limit and cursor ignored', async () => {
    const { h, ws } = await setup();
    for (let i = 0; i < 230; i++) {
      await ws.api.get('/ping');
    }
    const res = await h.admin.get('/requests', { query: { format: 'jsonl', limit: 5 } });
    const exported = lines(res.text);
    expect(exported).toHaveLength(230);
    const ids = exported.map((e) => e.id);
    expect(ids).toEqual([...ids].sort());
  });

  test('takes the list filters: workspace_id, key_id, method, path, status', async () => {
    const { h, ws } = await setup();
    const other = await h.workspace({ profile: 'empty' });
    await ws.api.get('/ping');
    await ws.read.get('/contacts');
    await ws.api.post('/contacts', {}, { invalid: true });
    await other.api.get('/ping');
    const cases: [Record<string, string>, string[]][] = [
      [{ workspace_id: other.id }, ['GET /v1/ping']],
      [{ key_id: ws.keys.read.id }, ['GET /v1/contacts']],
      [{ workspace_id: ws.id, method: 'post' }, ['POST /v1/contacts']],
      [{ workspace_id: ws.id, path: '/contacts' }, ['GET /v1/contacts', 'POST /v1/contacts']],
      [{ status: '4xx' }, ['POST /v1/contacts']],
    ];
    for (const [query, expected] of cases) {
      const res = await h.admin.get('/requests', { query: { ...query, format: 'jsonl' } });
      expect([query, lines(res.text).map((e) => `${e.method} ${e.path}`)]).toEqual([
        query,
        expected,
      ]);
    }
  });

  test('nothing matching is an empty body, still 200', async () => {
    const { h } = await setup();
    const res = await h.admin.get('/requests', { query: { format: 'jsonl' } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  test('a format other than json or jsonl is 400 invalid_request, field format', async () => {
    const { h } = await setup();
    for (const format of ['csv', 'JSONL', '']) {
      const res = await h.admin.get('/requests', { query: { format }, invalid: true });
      expect([format, res.status]).toEqual([format, 400]);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'format' });
    }
  });

  test('the control API document describes both answers, and format, since and until', async () => {
    const { h } = await setup();
    const doc: Json = await (await h.app.request('http://localhost/__admin/openapi.json')).json();
    const op = doc.paths['/requests'].get;
    expect(Object.keys(op.responses['200'].content)).toEqual([
      'application/json',
      'application/x-ndjson',
    ]);
    const format = op.parameters.find((p: Json) => p.name === 'format');
    expect(format.schema).toMatchObject({ enum: ['json', 'jsonl'], default: 'json' });
    expect(op.parameters.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(['since', 'until']),
    );
  });

  test('format=json (the default) is the paged list, as before', async () => {
    const { h, ws } = await setup();
    await ws.api.get('/ping');
    const res = await h.admin.get('/requests', { query: { format: 'json' } });
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ object: 'list', has_more: false });
    expect(res.body.data).toHaveLength(1);
  });
});

describe('since and until on GET /__admin/requests', () => {
  const timed = async () => {
    const { h, ws } = await setup();
    await ws.api.get('/ping');
    await h.admin.post('/clock', { advance_seconds: 3600 });
    await ws.api.get('/contacts');
    await h.admin.post('/clock', { advance_seconds: 3600 });
    await ws.api.get('/users');
    const all = (await h.admin.get('/requests')).body.data as Json[];
    const at = (path: string) => all.find((e) => e.path === path)?.at as string;
    return { h, at };
  };

  test('since keeps calls at or after it, until those before it, in both formats', async () => {
    const { h, at } = await timed();
    const since = at('/v1/contacts');
    const paths = async (query: Record<string, string>) => {
      const page = (await h.admin.get('/requests', { query })).body.data.map((e: Json) => e.path);
      const text = (await h.admin.get('/requests', { query: { ...query, format: 'jsonl' } })).text;
      expect(lines(text).map((e) => e.path)).toEqual([...page].reverse());
      return page;
    };
    expect(await paths({ since })).toEqual(['/v1/users', '/v1/contacts']);
    expect(await paths({ until: since })).toEqual(['/v1/ping']);
    expect(await paths({ since, until: at('/v1/users') })).toEqual(['/v1/contacts']);
  });

  test('a since or until that is no ISO date or date-time is 400 naming it', async () => {
    const { h } = await setup();
    for (const [name, value] of [
      ['since', 'yesterday'],
      ['until', '2026-02-30'],
    ] as const) {
      const res = await h.admin.get('/requests', { query: { [name]: value }, invalid: true });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field: name });
    }
  });

  test('an until not after since is 400 invalid_request, field until, in both formats', async () => {
    const { h } = await setup();
    const windows: [string, string][] = [
      ['2026-11-26', '2026-11-25'],
      ['2026-11-25T12:00:00Z', '2026-11-25T12:00:00.000Z'],
      ['2026-11-25T13:00:00+01:00', '2026-11-25'],
    ];
    for (const [since, until] of windows) {
      for (const format of ['json', 'jsonl']) {
        const res = await h.admin.get('/requests', {
          query: { since, until, format },
          invalid: true,
        });
        expect([since, until, format, res.status]).toEqual([since, until, format, 400]);
        expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'until' });
      }
    }
    // one millisecond after is a window
    const ok = await h.admin.get('/requests', {
      query: { since: '2026-11-25T12:00:00Z', until: '2026-11-25T12:00:00.001Z' },
    });
    expect(ok.status).toBe(200);
  });
});
