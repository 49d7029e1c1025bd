import type { ParamIndexMap, Params, Result } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, test } from 'vitest';
import { SegmentRouter } from '../../src/platform/http/router';
import { harness } from '../support/harness';

// SegmentRouter must answer exactly as Hono's Trie router, which svc used before it: the same
// handlers in the same order, each with the same params.

/** A match as [handler, params] pairs, params as values whichever form the router answered. */
function plain(result: Result<number>): [number, Params][] {
  const [matches, stash] = result;
  return matches.map(([handler, params]) => {
    if (!stash) {
      return [handler, { ...(params as Params) }];
    }
    const values: Params = {};
    for (const [name, index] of Object.entries(params as ParamIndexMap)) {
      values[name] = stash[index] as string;
    }
    return [handler, values];
  });
}

function both(routes: [string, string][]): [SegmentRouter<number>, TrieRouter<number>] {
  const mine = new SegmentRouter<number>();
  const trie = new TrieRouter<number>();
  routes.forEach(([method, path], i) => {
    mine.add(method, path, i);
    trie.add(method, path, i);
  });
  return [mine, trie];
}

/** Expects both routers' answers alike for every method on every path; the pairs compared. */
function expectAlike(
  [mine, trie]: [SegmentRouter<number>, TrieRouter<number>],
  paths: Iterable<string>,
  methods: readonly string[],
): number {
  let compared = 0;
  for (const path of paths) {
    for (const method of methods) {
      expect([method, path, plain(mine.match(method, path))]).toEqual([
        method,
        path,
        plain(trie.match(method, path)),
      ]);
      compared += 1;
    }
  }
  return compared;
}

const VALUES = ['abc', 'search', '', 'a%2Fb', 'on', 'hourly'];
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'];

/** Paths a route's pattern could meet: each param and star filled in several ways, and more. */
function pathsFor(pattern: string): string[] {
  let paths = [''];
  for (const part of pattern.split('/').slice(1)) {
    const fills = part.startsWith(':') ? VALUES : part === '*' ? ['', 'x', 'x/y'] : [part];
    paths = paths.flatMap((p) => fills.map((f) => `${p}/${f}`));
    if (paths.length > 200) {
      paths = paths.filter((_, i) => i % 7 === 0);
    }
  }
  return paths.flatMap((p) => [p, `${p}/`, `${p}/more`, p.slice(0, p.lastIndexOf('/')) || '/']);
}

describe('the router answers as the Trie router', () => {
  test('every route of the app, for every method, on paths filled in every way', () => {
    const h = harness();
    const routes = h.app.routes.map((r): [string, string] => [r.method, r.path]);
    const routers = both(routes);
    const paths = new Set([
      '/',
      '//',
      '/v1',
      '/v1/',
      '/nowhere',
      ...routes.flatMap(([, p]) => pathsFor(p)),
    ]);
    const compared = expectAlike(routers, paths, METHODS);
    expect(compared).toBeGreaterThan(5_000);
  });

  test('a static segment beside a param, both matching, gives both in the order added', () => {
    const routers = both([
      ['ALL', '/v1/*'],
      ['GET', '/v1/jobs/:id'],
      ['GET', '/v1/jobs/search'],
      ['GET', '/v1/jobs/:job_id/notes'],
    ]);
    const paths = ['/v1/jobs/search', '/v1/jobs/x', '/v1/jobs/x/notes', '/v1/jobs', '/v1'];
    expectAlike(routers, paths, ['GET']);
    const [mine] = routers;
    expect(plain(mine.match('GET', '/v1/jobs/search'))).toEqual([
      [0, {}],
      [1, { id: 'search' }],
      [2, {}],
    ]);
  });

  test('routes it does not take (a regex param, a star inside, a prefix star) are answered as the Trie router does', () => {
    const routers = both([
      ['POST', '/clock/advance/:by{hour|day}'],
      ['GET', '/a/*/b'],
      ['GET', '/files/img*'],
      ['GET', '/v1/:id?'],
    ]);
    const paths = [
      '/clock/advance/hour',
      '/clock/advance/hourly',
      '/a/x/b',
      '/files/img1',
      '/v1',
      '/v1/x',
    ];
    expectAlike(routers, paths, ['GET', 'POST']);
  });

  test('a param never matches an empty segment, and a final star matches its own prefix', () => {
    const [mine] = both([
      ['GET', '/v1/jobs/:id'],
      ['ALL', '/v1/*'],
    ]);
    expect(plain(mine.match('GET', '/v1/jobs/'))).toEqual([[1, {}]]);
    expect(plain(mine.match('GET', '/v1'))).toEqual([[1, {}]]);
    expect(plain(mine.match('GET', '/v2'))).toEqual([]);
  });
});
