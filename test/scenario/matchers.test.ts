import { describe, expect, test } from 'vitest';
import { isMatcher, match, matchHeader } from '../../src/clients/scenario';
import { Literal } from '../../src/clients/scenario/matchers';
import { read } from '../../src/clients/scenario/steps';
import { substitute, UnknownName } from '../../src/clients/scenario/substitute';

// FORMAT.md, Matchers and `{{name}}`: each rule, passing and failing.

const UUID = '5f0c8a2e-1b2c-4d3e-8f9a-0b1c2d3e4f5a';

describe('matchers', () => {
  const cases: [string, unknown, unknown, boolean][] = [
    ['a literal string equals', 'Ada', 'Ada', true],
    ['a literal string differs', 'Ada', 'Bob', false],
    ['a literal null needs null', null, null, true],
    ['null is not a missing field', null, undefined, false],
    ['a literal object matches as a subset', { a: 1 }, { a: 1, b: 2 }, true],
    ['a literal object needs its fields', { a: 1, c: 3 }, { a: 1, b: 2 }, false],
    ['a literal array matches by index', [1, { a: 1 }], [1, { a: 1, b: 2 }], true],
    ['a literal array needs the same length', [1], [1, 2], false],
    ['type string', { type: 'string' }, 'x', true],
    ['type string refuses a number', { type: 'string' }, 1, false],
    ['type integer refuses a fraction', { type: 'integer' }, 1.5, false],
    ['type number takes a fraction', { type: 'number' }, 1.5, true],
    ['type null', { type: 'null' }, null, true],
    ['type array', { type: 'array' }, [], true],
    ['type object refuses an array', { type: 'object' }, [], false],
    ['type boolean', { type: 'boolean' }, false, true],
    ['match', { match: '^svc_live_' }, 'svc_live_abc', true],
    ['match refuses a non-string', { match: '1' }, 1, false],
    ['exists true takes null', { exists: true }, null, true],
    ['exists true refuses missing', { exists: true }, undefined, false],
    ['exists false takes missing', { exists: false }, undefined, true],
    ['exists false refuses present', { exists: false }, 'x', false],
    ['length of an array', { length: 2 }, [1, 2], true],
    ['length of a string', { length: 3 }, 'abc', true],
    ['length differs', { length: 1 }, [1, 2], false],
    ['length takes a matcher', { length: { gte: 1 } }, [1], true],
    ['length matcher fails', { length: { gte: 2 } }, [1], false],
    ['gte and lte combined', { gte: 1, lte: 5 }, 5, true],
    ['gte and lte out of range', { gte: 1, lte: 5 }, 6, false],
    ['oneOf', { oneOf: [200, 204] }, 204, true],
    ['oneOf misses', { oneOf: [200, 204] }, 201, false],
    ['uuid', { uuid: true }, UUID, true],
    ['uuid refuses text', { uuid: true }, 'job-1', false],
    ['datetime', { datetime: true }, '2026-06-02T15:42:10.000Z', true],
    ['datetime refuses a date', { datetime: true }, '2026-06-02', false],
    [
      'equals escapes a matcher-shaped literal',
      { equals: { type: 'string' } },
      { type: 'string' },
      true,
    ],
    ['combined matchers all hold', { type: 'string', match: '^A' }, 'Ada', true],
    ['combined matchers fail on one', { type: 'string', match: '^A' }, 'Bob', false],
    [
      'allOf: each part holds',
      { allOf: [{ a: 1 }, { b: { type: 'number' } }] },
      { a: 1, b: 2 },
      true,
    ],
    [
      'allOf: one part fails',
      { allOf: [{ a: 1 }, { b: { type: 'string' } }] },
      { a: 1, b: 2 },
      false,
    ],
    ['a matcher on a missing field fails', { type: 'string' }, undefined, false],
  ];
  test.each(cases)('%s', (_, expected, actual, passes) => {
    expect(match(expected, actual, 'body') === null).toBe(passes);
  });

  test('{type: homeowner} is a literal subset, {type: string} a matcher', () => {
    expect(isMatcher({ type: 'homeowner' })).toBe(false);
    expect(isMatcher({ type: 'string' })).toBe(true);
    expect(match({ type: 'homeowner' }, { type: 'homeowner', id: UUID }, 'body')).toBeNull();
    expect(match({ type: 'homeowner' }, 'homeowner', 'body')).not.toBeNull();
    expect(match({ type: 'string' }, 'homeowner', 'body')).toBeNull();
  });

  test('an object is a matcher only when every key is a matcher key with a valid value', () => {
    expect(isMatcher({ gte: 1, name: 'x' })).toBe(false);
    expect(isMatcher({ gte: '1' })).toBe(false);
    expect(isMatcher({ uuid: false })).toBe(false);
    expect(isMatcher({ match: '(' })).toBe(false);
    expect(isMatcher({})).toBe(false);
  });

  test('a mismatch names the path, what was expected and what came', () => {
    expect(match({ data: [{ name: 'Ada' }] }, { data: [{ name: 'Bob' }] }, 'body')).toEqual({
      path: 'body.data.0.name',
      expected: '"Ada"',
      got: '"Bob"',
    });
    expect(match({ id: { uuid: true } }, {}, 'body')).toEqual({
      path: 'body.id',
      expected: 'a uuid',
      got: '(missing)',
    });
  });

  test('a Literal (a captured record) is never read as a matcher', () => {
    const record = { settings: { length: 3 }, name: 'x' };
    expect(match(new Literal(record), { ...record, extra: 1 }, 'body')).toBeNull();
    expect(
      match(new Literal({ settings: { length: 3 } }), { settings: [1, 2, 3] }, 'body'),
    ).not.toBeNull();
  });

  test('a header matches its digits as a number, a literal number as text', () => {
    expect(matchHeader(120, '120', 'header.x')).toBeNull();
    expect(matchHeader({ gte: 0, lte: 120 }, '119', 'header.x')).toBeNull();
    expect(matchHeader({ gte: 1 }, '0', 'header.x')).not.toBeNull();
    expect(matchHeader({ type: 'integer' }, '7', 'header.x')).toBeNull();
    expect(matchHeader({ exists: false }, undefined, 'header.x')).toBeNull();
    expect(matchHeader('true', 'true', 'header.x')).toBeNull();
  });
});

describe('substitution', () => {
  const vars = new Map<string, unknown>([
    ['id', UUID],
    ['n', 3],
    ['rec', { a: 1 }],
    ['flag', true],
  ]);

  test('a value that is exactly {{name}} takes the captured value with its JSON type', () => {
    expect(substitute({ count: '{{n}}', rec: '{{rec}}', on: '{{ flag }}' }, vars)).toEqual({
      count: 3,
      rec: { a: 1 },
      on: true,
    });
  });

  test('inside a longer string the value is interpolated as text', () => {
    expect(substitute('/jobs/{{id}}?n={{n}}&r={{rec}}', vars)).toBe(`/jobs/${UUID}?n=3&r={"a":1}`);
  });

  test('arrays and nested objects are walked; keys are left alone', () => {
    expect(substitute({ '{{id}}': ['{{n}}', { x: 'a{{n}}' }] }, vars)).toEqual({
      '{{id}}': [3, { x: 'a3' }],
    });
  });

  test('an unknown name is an error naming it', () => {
    expect(() => substitute({ path: '/jobs/{{job_id}}' }, vars)).toThrow(UnknownName);
    expect(() => substitute('{{job_id}}', vars)).toThrow('{{job_id}}');
  });

  test('in an expectation a whole object comes as a Literal', () => {
    expect(substitute('{{rec}}', vars, true)).toBeInstanceOf(Literal);
    expect(substitute('{{n}}', vars, true)).toBe(3);
  });
});

describe('capture paths', () => {
  const from = {
    body: { id: 'a', data: [{ id: 'b' }], error: { field: 'name' } },
    headers: new Headers({ 'X-Request-Id': 'req_1' }),
  };
  test.each([
    ['id', 'a'],
    ['data.0.id', 'b'],
    ['error.field', 'name'],
    ['header.x-request-id', 'req_1'],
    ['header.X-Request-Id', 'req_1'],
    ['$', from.body],
    ['data.1.id', undefined],
    ['nope', undefined],
    ['header.nope', undefined],
  ])('%s', (path, value) => {
    expect(read(from, path)).toEqual(value);
  });
});
