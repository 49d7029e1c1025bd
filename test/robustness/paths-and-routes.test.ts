import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { baseRequest, type Case, concrete, type Expect, fill, hasBody, type Who } from './cases';
import { type Base, type Operation, operations, resolve } from './document';
import { environment } from './environment';
import { runAll, walkOperations } from './run';
import { baseBody } from './sample';
import { KB, pathJunk } from './values';

// Junk path parameters, wrong verbs, and routes no document names (spec, Errors: 404 and 405).

function pathCases(op: Operation): Case[] {
  if (op.pathParams.length === 0) {
    return [];
  }
  const { precise } = baseBody(op);
  const withBody = baseRequest(op);
  const isUuid = (name: string) =>
    resolve(op.doc, op.pathParams.find((p) => p.name === name)?.schema)?.format === 'uuid';
  const allUuid = op.pathParams.every((p) => isUuid(p.name));
  const documents404 = op.op.responses?.['404'] !== undefined;
  const variants = [
    {
      name: 'a random UUID',
      value: randomUUID(),
      // spec, Errors: no such record is 404 not_found.
      expect:
        allUuid && documents404 && (precise || !hasBody(op))
          ? { status: [404], code: 'not_found' }
          : undefined,
    },
    ...pathJunk(),
  ];
  return variants
    .filter(
      (v) =>
        !landsOnAnother(
          op,
          fill(op.path, () => v.value),
        ),
    )
    .map((v) => ({
      name: `path parameters as ${v.name}`,
      ...withBody,
      path: fill(op.path, () => v.value),
      expect: v.expect,
    }));
}

/**
 * Whether a client's URL resolution (`/workspaces/../snapshot` is `/snapshot`) makes the path
 * another operation's own: the answer is then that operation's, not this one's, whatever svc does.
 */
function landsOnAnother(op: Operation, path: string): boolean {
  const resolved = new URL(path, 'http://x').pathname;
  return resolved !== path && operations.some((o) => o.base === op.base && o.path === resolved);
}

walkOperations({ name: 'junk path parameters', cases: pathCases });

// Paths with their documented verbs, for the routing rules.
const paths = [...new Set(operations.map((o) => `${o.base} ${o.path}`))].map((key) => {
  const [base = '/v1', path = '/'] = key.split(' ') as [Base, string];
  const ops = operations.filter((o) => o.base === base && o.path === path);
  const first = ops[0] as Operation;
  return { base, path, verbs: ops.map((o) => o.method), op: first };
});

describe.each(paths.map((p) => [`${p.base} ${p.path}`, p] as const))(
  '%s',
  (_, { base, verbs, op }) => {
    const wrong = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter(
      (v) => !verbs.includes(v),
    );
    const allow = [...verbs, ...(verbs.includes('GET') ? ['HEAD'] : [])].sort();
    const templates = paths.filter((p) => p.base === base).map((p) => p.path);
    const known = (concretePath: string) =>
      templates.some((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(concretePath));

    test('a wrong verb is 405 method_not_allowed with Allow; an unknown sub-route is 404', async () => {
      const env = await environment();
      const cases: Case[] = wrong.map((method) => ({
        name: `${method} (wrong verb)`,
        method,
        path: concrete(op),
        expect: { status: [405], code: 'method_not_allowed', allow },
      }));
      const below = `${concrete(op)}/zzz-no-such-route`;
      if (!known(below)) {
        cases.push({
          name: 'an unknown sub-route',
          method: 'GET',
          path: below,
          expect: { status: [404], code: 'not_found' },
        });
      }
      // A trailing slash, a doubled slash, capitals: any answer but a fault or a self-denying 405.
      for (const variant of [`${concrete(op)}/`, `/${concrete(op)}`, concrete(op).toUpperCase()]) {
        cases.push({ name: `the variant ${variant.slice(0, 60)}`, path: variant });
      }
      const problems = await runAll(env, op, cases);
      expect(problems).toEqual([]);
    });
  },
);

describe('routes no document names', () => {
  const probeOp = (base: Base): Operation =>
    operations.find((o) => o.base === base) ?? (operations[0] as Operation);
  const notFound: Expect = { status: [404], code: 'not_found' };
  const table: [string, { base: Base; path: string; who: Who; expect: Expect }][] = [
    [
      'an unknown route under /v1 is 404',
      { base: '/v1', path: '/zzz-nope', who: 'write', expect: notFound },
    ],
    [
      'a deep unknown route is 404',
      { base: '/v1', path: '/zzz/deeper/still', who: 'write', expect: notFound },
    ],
    ['the bare base is 404', { base: '/v1', path: '/', who: 'write', expect: notFound }],
    [
      'a 10 KB unknown route is 404',
      { base: '/v1', path: `/${'z'.repeat(10 * KB)}`, who: 'write', expect: notFound },
    ],
    ['a broken escape is 404', { base: '/v1', path: '/%ZZ', who: 'write', expect: notFound }],
    [
      'an unknown route without a credential is 401 or 404',
      { base: '/v1', path: '/zzz-nope', who: 'nobody', expect: { status: [401, 404] } },
    ],
    [
      'an unknown route under /__admin is 404',
      { base: '/__admin', path: '/zzz-nope', who: 'admin', expect: notFound },
    ],
  ];
  test.each(table)('%s', async (name, { base, path, who, expect: e }) => {
    const env = await environment();
    const cases: Case[] = [{ name, who, method: 'GET', path, expect: e }];
    expect(await runAll(env, probeOp(base), cases)).toEqual([]);
  });
});
