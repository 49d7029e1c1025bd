// svc coverage of a known session (issue 19, Done when: "coverage of a known session exact"),
// read in-process through the code that reads a running svc.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Coverage } from '../../src/clients/coverage';
import { coverageOf, knownSession, type Session } from './session';

let s: Session;
let all: Coverage;
let mine: Coverage;

beforeAll(async () => {
  s = await knownSession();
  all = await coverageOf(s.h);
  mine = await coverageOf(s.h, s.ws.id);
});

const row = (c: Coverage, method: string, path: string) =>
  c.operations.find((o) => o.method === method && o.path === path);

describe('operations', () => {
  test('each operation called is counted with its statuses, keyed by the status as text', () => {
    expect(row(mine, 'POST', '/contacts')).toMatchObject({
      calls: 3,
      statuses: { '201': 2, '400': 1 },
      operation_id: 'createContact',
      faulted: 0,
    });
    expect(row(mine, 'GET', '/contacts/{id}')).toMatchObject({
      calls: 2,
      statuses: { '200': 1, '404': 1 },
    });
    expect(row(mine, 'POST', '/webhooks')).toMatchObject({ calls: 2, statuses: { '201': 2 } });
  });

  test('the operations are exactly those called, in the order of the document', () => {
    expect(mine.operations.map((o) => `${o.method} ${o.path} ${o.calls}`)).toEqual([
      'GET /jobs/search 1',
      'GET /contacts 1',
      'POST /contacts 3',
      'GET /contacts/{id} 2',
      'POST /webhooks 2',
    ]);
    expect(mine.requests).toBe(11);
  });

  test('a literal segment beats a parameter: /jobs/search is not GET /jobs/{id}', () => {
    expect(row(mine, 'GET', '/jobs/search')?.calls).toBe(1);
    expect(row(mine, 'GET', '/jobs/{id}')).toBeUndefined();
  });

  test('HEAD counts as the GET of its path (the API answers HEAD wherever GET is)', () => {
    expect(row(mine, 'GET', '/contacts')).toMatchObject({ calls: 1, statuses: { '200': 1 } });
  });

  test('calls that reached no operation are unmatched, by concrete path, not operations', () => {
    expect(mine.unmatched).toEqual([
      { method: 'GET', path: '/v1/nope', calls: 1, statuses: { '404': 1 } },
      { method: 'PUT', path: '/v1/contacts', calls: 1, statuses: { '405': 1 } },
    ]);
  });
});

describe('never called', () => {
  test('holds an operation never called and none that was', () => {
    const named = mine.never_called.map((e) => `${e.method} ${e.path}`);
    expect(named).toContain('GET /jobs/{id}');
    expect(named).toContain('DELETE /contacts/{id}');
    for (const o of mine.operations) {
      expect(named).not.toContain(`${o.method} ${o.path}`);
    }
  });

  test('every logged operation of the document is either called or never called', async () => {
    const doc = (await (await s.h.app.request('/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    let count = 0;
    for (const item of Object.values(doc.paths)) {
      count += Object.keys(item).length;
    }
    expect(mine.operations.length + mine.never_called.length + mine.not_logged.length).toBe(count);
  });

  test('the OAuth token endpoints, which the request log cannot see, are not_logged, not never called', () => {
    expect(mine.not_logged).toEqual([
      { method: 'POST', path: '/oauth/token' },
      { method: 'POST', path: '/oauth/revoke' },
    ]);
    expect(mine.never_called.some((e) => e.path.startsWith('/oauth'))).toBe(false);
  });
});

describe('error codes', () => {
  test('each error code met is counted from the logged error envelope', () => {
    expect(mine.error_codes).toEqual({ not_found: 2, invalid_request: 1, method_not_allowed: 1 });
  });
});

describe('events', () => {
  test('a delivery answered 500 then retried to 200 counts both attempts', () => {
    expect(mine.events).toEqual([
      {
        event: 'contact.created',
        deliveries: 2,
        statuses: { '200': 2, '500': 1 },
        states: { succeeded: 2 },
        retried: 1,
        faulted: 0,
      },
    ]);
  });

  test('an event subscribed to and never delivered is named', () => {
    expect(mine.never_delivered).toEqual(['job.created']);
  });
});

describe('--workspace', () => {
  test("restricts the report to one workspace's requests", async () => {
    const other = await coverageOf(s.h, s.other.id);
    expect(other.workspace_id).toBe(s.other.id);
    expect(other.requests).toBe(1);
    expect(other.operations.map((o) => `${o.method} ${o.path} ${o.calls}`)).toEqual([
      'GET /ping 1',
    ]);
    expect(other.error_codes).toEqual({});
    expect(other.unmatched).toEqual([]);
  });

  test("restricts the deliveries to the workspace's subscriptions", async () => {
    const other = await coverageOf(s.h, s.other.id);
    expect(other.events).toEqual([]);
    expect(other.never_delivered).toEqual([]);
  });

  test('without it, every workspace counts', () => {
    expect(all.workspace_id).toBeNull();
    expect(all.requests).toBe(12);
    expect(row(all, 'GET', '/ping')?.calls).toBe(1);
    expect(row(all, 'POST', '/contacts')?.calls).toBe(3);
    expect(all.events).toEqual(mine.events);
  });
});

describe('the JSON shape', () => {
  test("DESIGN.md's fields come first, then what svc adds", () => {
    expect(Object.keys(mine)).toEqual([
      'operations',
      'never_called',
      'error_codes',
      'events',
      'workspace_id',
      'requests',
      'unmatched',
      'not_logged',
      'faulted',
      'rate_limits',
      'never_delivered',
      'never_exercised',
    ]);
    expect(Object.keys(mine.operations[0] ?? {}).slice(0, 4)).toEqual([
      'method',
      'path',
      'calls',
      'statuses',
    ]);
    expect(Object.keys(mine.never_called[0] ?? {})).toEqual(['method', 'path']);
    expect(Object.keys(mine.events[0] ?? {}).slice(0, 3)).toEqual([
      'event',
      'deliveries',
      'statuses',
    ]);
  });
});
