// The terminal report (src/clients/coverage/table.ts): its sections, within 100 columns.
import { describe, expect, test } from 'vitest';
import { computeCoverage, coverageTable } from '../../src/clients/coverage';
import { readDocument } from '../../src/clients/coverage/document';
import type { LogEntry } from '../../src/clients/coverage/entries';

const doc = readDocument({
  openapi: '3.0.3',
  paths: {
    '/contacts': { get: { operationId: 'listContacts' }, post: { operationId: 'createContact' } },
    '/contacts/{id}': { get: {}, delete: {} },
    '/oauth/token': { post: { security: [] } },
  },
  'x-webhooks': { 'contact.created': {}, 'contact.deleted': {} },
});

const entry = (method: string, path: string, status: number, extra: Partial<LogEntry> = {}) => ({
  at: '2026-05-01T12:00:00.000Z',
  method,
  path,
  query: {},
  status,
  key_id: 'key_1',
  workspace_id: 'ws_1',
  request_headers: {},
  response_body:
    status >= 400 ? JSON.stringify({ error: { code: status === 404 ? 'not_found' : 'x' } }) : null,
  ...extra,
});

function table(entries: LogEntry[]): string[] {
  if (!doc) {
    throw new Error('no document');
  }
  const c = computeCoverage({
    doc,
    entries,
    deliveries: [
      {
        id: 'd1',
        webhook_id: 'w1',
        event: 'contact.created',
        kind: 'event',
        state: 'succeeded',
        attempts: [
          { status_code: null, error: 'timed out after 10 s' },
          { status_code: 200, error: null },
        ],
      },
    ],
    subscriptions: [{ id: 'w1', event: '*', workspace_id: 'ws_1' }],
    workspaceId: null,
  });
  return coverageTable(c, { base: 'http://127.0.0.1:4010', deliveries: 1 });
}

describe('the terminal table', () => {
  const lines = table([
    entry('POST', '/v1/contacts', 201),
    entry('POST', '/v1/contacts', 201),
    entry('GET', '/v1/contacts', 0, { fault: 'flt_0123456789abcdef' }),
    entry('GET', `/v1/${'very-long-segment/'.repeat(8)}end`, 404),
  ]);
  const text = lines.join('\n');

  test('has every section, in order', () => {
    const order = [
      'Coverage of http://127.0.0.1:4010 (all workspaces)',
      '4 requests, 1 delivery',
      'Operations called: 2 of 4',
      'Never called: 2',
      'Not in the request log (no workspace credential): POST /oauth/token',
      'No operation of the document (1):',
      'Error codes',
      'Events delivered: 1',
      'Never exercised',
    ];
    const at = order.map((heading) => lines.indexOf(heading));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  test('rows say the calls and statuses; a dropped call and a faulted one are named', () => {
    expect(text).toMatch(/^ {2}POST {4}\/contacts +2 {2}201 x2$/m);
    expect(text).toMatch(/^ {2}GET {5}\/contacts +1 {2}dropped x1 \(1 faulted\)$/m);
    expect(text).toMatch(/^ {2}contact\.created +1 +1 {2}no-answer x1, 200 x1$/m);
    expect(text).toMatch(/^ {2}not_found 1$/m);
  });

  test('every line fits in 100 columns, a long unmatched path too', () => {
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(100);
    expect(text).toContain('/v1/very-long-segment/');
  });

  test('never called lists every operation not called, laid out in columns', () => {
    const at = lines.indexOf('Never called: 2');
    expect(lines[at + 1]).toMatch(/^ {2}GET \/contacts\/\{id\} {2}DELETE \/contacts\/\{id\}$/);
  });

  test('a * subscription names every event never delivered', () => {
    expect(text).toContain('- subscribed, never delivered: contact.deleted');
  });

  test('with no traffic, the sections say none', () => {
    const empty = table([]).join('\n');
    expect(empty).toContain('Operations called: 0 of 4');
    expect(empty).toMatch(/^Error codes\n {2}none met$/m);
  });
});
