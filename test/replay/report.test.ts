import { XMLParser } from 'fast-xml-parser';
import { describe, expect, test } from 'vitest';
import { jsonReport, junitReport } from '../../src/clients/replay/report';
import type { Outcome } from '../../src/clients/replay/run';

const outcome = (over: Partial<Outcome>): Outcome => ({
  method: 'GET',
  path: '/v1/ping',
  recorded_status: 200,
  status: 200,
  result: 'same',
  differences: [],
  reason: null,
  failed: false,
  duration_ms: 3,
  ...over,
});

const outcomes = [
  outcome({}),
  outcome({
    path: '/v1/contacts/<&"\'>',
    status: 429,
    result: 'different',
    differences: ['status: 429, recorded 200', 'error code: rate_limited, recorded none'],
  }),
  outcome({
    method: 'POST',
    path: '/v1/files',
    status: null,
    result: 'skipped',
    reason: 'a <multipart> upload',
  }),
];

describe('reports', () => {
  test('the JUnit file is one testsuite "replay", a testcase a request, escaped, and parses', () => {
    const xml = junitReport(outcomes);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suite = doc.testsuites.testsuite;
    expect(suite).toMatchObject({ name: 'replay', tests: '3', failures: '1', skipped: '1' });
    expect(suite.testcase).toHaveLength(3);
    expect(suite.testcase[1].name).toBe('2 GET /v1/contacts/<&"\'>');
    expect(suite.testcase[1].failure['#text']).toBe(
      'status: 429, recorded 200\nerror code: rate_limited, recorded none',
    );
    expect(suite.testcase[2].skipped.message).toBe('a <multipart> upload');
  });

  test('control characters, which XML cannot hold even escaped, are replaced', () => {
    const xml = junitReport([outcome({ path: '/v1/a\u0001b' })]);
    expect(xml).not.toContain('\u0001');
    expect(() => new XMLParser().parse(xml)).not.toThrow();
  });

  test('the JSON report has the requests, then the counts', () => {
    const report = JSON.parse(jsonReport(outcomes));
    expect(Object.keys(report)).toEqual(['requests', 'same', 'different', 'skipped']);
    expect(report).toMatchObject({ same: 1, different: 1, skipped: 1 });
    expect(Object.keys(report.requests[0]).sort()).toEqual(
      ['method', 'path', 'recorded_status', 'status', 'result', 'differences', 'reason'].sort(),
    );
  });
});
