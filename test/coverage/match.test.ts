// A logged concrete path to the document's template (src/clients/coverage/match.ts).
import { describe, expect, test } from 'vitest';
import type { Operation } from '../../src/clients/coverage/document';
import { operationMatcher } from '../../src/clients/coverage/match';

const op = (method: string, path: string): Operation => ({
  method,
  path,
  operationId: null,
  logged: true,
});

const ops = [
  op('GET', '/jobs'),
  op('GET', '/jobs/{id}'),
  op('DELETE', '/jobs/{id}'),
  op('GET', '/jobs/search'),
  op('GET', '/jobs/{id}/notes'),
  op('GET', '/{kind}/search'),
];
const match = operationMatcher(ops);
const found = (method: string, path: string) => {
  const o = match(method, path);
  return o === undefined ? undefined : `${o.method} ${o.path}`;
};

describe('matching a logged path to a template', () => {
  test.each([
    ['GET', '/v1/jobs', 'GET /jobs'],
    ['GET', '/v1/jobs/9b1d', 'GET /jobs/{id}'],
    ['GET', '/v1/jobs/search', 'GET /jobs/search'],
    ['GET', '/v1/contacts/search', 'GET /{kind}/search'],
    ['GET', '/v1/jobs/9b1d/notes', 'GET /jobs/{id}/notes'],
    ['HEAD', '/v1/jobs/9b1d', 'GET /jobs/{id}'],
    ['get', '/v1/jobs', 'GET /jobs'],
  ])('%s %s is %s', (method, path, want) => {
    expect(found(method, path)).toBe(want);
  });

  test('a literal segment beats a parameter, whichever the document lists first', () => {
    const reversed = operationMatcher([op('GET', '/jobs/search'), op('GET', '/jobs/{id}')]);
    expect(reversed('GET', '/v1/jobs/search')?.path).toBe('/jobs/search');
    expect(reversed('GET', '/v1/jobs/other')?.path).toBe('/jobs/{id}');
  });

  test('the method picks among templates: DELETE /jobs/search is DELETE /jobs/{id}, as the router routes it', () => {
    expect(found('DELETE', '/v1/jobs/search')).toBe('DELETE /jobs/{id}');
  });

  test.each([
    ['a path of no template', 'GET', '/v1/nope'],
    ['a method the path lacks', 'PUT', '/v1/jobs'],
    ['a trailing slash', 'GET', '/v1/jobs/'],
    ['an empty parameter', 'GET', '/v1/jobs//notes'],
    ['a path outside /v1', 'GET', '/jobs'],
    ['one segment too many', 'GET', '/v1/jobs/1/notes/2'],
  ])('%s matches nothing (%s %s)', (_why, method, path) => {
    expect(found(method, path)).toBeUndefined();
  });
});
