import { describe, expect, test } from 'vitest';
import { compareAnswers } from '../../src/clients/replay/compare';

// svc replay --compare: status, the error's code and field, fields present in one answer only,
// a value's JSON type, list lengths; never the values themselves.

const ok = (body: unknown, status = 200) => ({
  status,
  body: JSON.stringify(body),
  truncated: false,
});
const error = (status: number, code: string, field?: string) =>
  ok({ error: { code, message: 'm', field, request_id: 'req_1', doc_url: 'http://x' } }, status);

describe('compareAnswers', () => {
  test('ids, timestamps, request ids and assigned numbers differing are no difference', () => {
    const recorded = ok({
      id: 'a',
      job_number: 'J-1',
      created_at: '2026-01-01T00:00:00.000Z',
      tags: ['x'],
      homeowner: { id: 'h1', name: 'Ada' },
    });
    const now = ok({
      id: 'b',
      job_number: 'J-77',
      created_at: '2026-05-01T00:00:00.000Z',
      tags: ['y'],
      homeowner: { id: 'h2', name: 'Bob' },
    });
    expect(compareAnswers(recorded, now)).toEqual({ differences: [], note: null });
  });

  test.each([
    ['a status', ok({}, 201), ok({}, 200), ['status: 200, recorded 201']],
    [
      'an error code, and the status with it',
      ok({ id: 'a' }, 201),
      error(429, 'rate_limited'),
      ['status: 429, recorded 201', 'error code: rate_limited, recorded none'],
    ],
    [
      'an error field',
      error(400, 'invalid_request', 'name'),
      error(400, 'invalid_request', 'email'),
      ['error field: email, recorded name'],
    ],
    [
      'an error field present in one only',
      error(400, 'invalid_request'),
      error(400, 'invalid_request', 'email'),
      ['error field: email, recorded none'],
    ],
    [
      'a field present in one answer only (dotted path)',
      ok({ a: { b: 1, c: 2 } }),
      ok({ a: { b: 1, d: 2 } }),
      ['a.c: only in the recorded answer', 'a.d: only in the new answer'],
    ],
    [
      "a value's JSON type",
      ok({ a: 'x', b: [{ c: 1 }] }),
      ok({ a: null, b: [{ c: '1' }] }),
      ['a: type null, recorded string', 'b.0.c: type string, recorded number'],
    ],
    ['a list length', ok({ data: [1, 2, 3] }), ok({ data: [1] }), ['data: length 1, recorded 3']],
    [
      'JSON against text',
      { status: 200, body: '{"a":1}', truncated: false },
      { status: 200, body: 'hello', truncated: false },
      ['body: text, recorded JSON'],
    ],
  ])('%s differing is named', (_what, recorded, now, differences) => {
    expect(compareAnswers(recorded, now).differences).toEqual(differences);
  });

  test.each([
    ['text', { status: 502, body: 'Bad gateway', truncated: false }],
    ['nothing', { status: 404, body: '', truncated: false }],
    ['JSON that is no envelope', ok({ error: 'gone' }, 404)],
    ['an envelope without a code', ok({ error: { message: 'gone' } }, 404)],
  ])('a recorded error against %s names the recorded code against none', (_what, now) => {
    const differences = compareAnswers(error(404, 'not_found'), now).differences;
    expect(differences).toContain('error code: none, recorded not_found');
  });

  test('a new error where the recorded answer had none names its field too', () => {
    expect(
      compareAnswers(ok({ object: 'list', data: [] }), error(400, 'invalid_request', 'cursor'))
        .differences,
    ).toEqual([
      'status: 400, recorded 200',
      'error code: invalid_request, recorded none',
      'error field: cursor, recorded none',
    ]);
    // and the other way: a recorded error's field against none
    expect(compareAnswers(error(400, 'invalid_request', 'email'), ok({})).differences).toEqual([
      'status: 200, recorded 400',
      'error code: none, recorded invalid_request',
      'error field: none, recorded email',
    ]);
  });

  test('the message, request_id and doc_url of an error are no difference', () => {
    const a = ok(
      { error: { code: 'not_found', message: 'a', request_id: 'r1', doc_url: 'u1' } },
      404,
    );
    const b = ok(
      { error: { code: 'not_found', message: 'b', request_id: 'r2', doc_url: 'u2' } },
      404,
    );
    expect(compareAnswers(a, b).differences).toEqual([]);
  });

  test('a recorded answer the log truncated is compared on status only, and says so', () => {
    const recorded = { status: 200, body: '{"data":[{"a":1},{"a"', truncated: true };
    expect(compareAnswers(recorded, ok({ data: [] }))).toEqual({
      differences: [],
      note: 'the log truncated the recorded answer: status compared only',
    });
    expect(compareAnswers(recorded, ok({}, 500)).differences).toEqual([
      'status: 500, recorded 200',
    ]);
  });

  test('answers with no body are the same', () => {
    const none = { status: 204, body: null, truncated: false };
    expect(compareAnswers(none, { ...none, body: '' }).differences).toEqual([]);
  });

  test('past 20 differences the rest are counted in one line', () => {
    const wide = (prefix: string) =>
      ok(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`${prefix}${i}`, 1])));
    const { differences } = compareAnswers(wide('a'), wide('b'));
    expect(differences).toHaveLength(20);
    expect(differences.at(-1)).toBe('and 41 more differences');
  });
});
