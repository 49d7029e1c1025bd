import { describe, expect, test } from 'vitest';
import { cappedJson } from './capped-json';

describe('cappedJson', () => {
  test.each([
    [{ a: 1, b: 'x', c: [1, 2, { d: null }], e: { f: true } }],
    [[1, 'two', null, { three: [3] }]],
    ['plain'],
    [42],
    [null],
    [{ skipped: undefined, kept: 0 }],
    [{ when: new Date(0) }],
  ])('under the limit it is exactly JSON.stringify (%j)', (value) => {
    expect(cappedJson(value, 10_000)).toEqual({ text: JSON.stringify(value), truncated: false });
  });

  test('over the limit it is the first characters of the JSON, marked truncated', () => {
    const page = {
      object: 'list',
      data: Array.from({ length: 500 }, (_, i) => ({ id: i, name: `job ${i}` })),
      has_more: true,
    };
    const full = JSON.stringify(page);
    const capped = cappedJson(page, 1000);
    expect(capped.truncated).toBe(true);
    expect(capped.text).toBe(full.slice(0, 1000));
  });

  test('exactly at the limit is complete', () => {
    const value = { a: 'x'.repeat(20) };
    const text = JSON.stringify(value);
    expect(cappedJson(value, text.length)).toEqual({ text, truncated: false });
  });
});
