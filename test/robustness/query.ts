import { baseRequest, type Case, type Expect, type Group, invalid } from './cases';
import { type Operation, type Parameter, resolve } from './document';
import { KB, QUERY_JUNK, rawQueryJunk } from './values';

// Junk in every documented query parameter, and parameters no document names.

// spec, Pagination 1 to 3, and Errors: what a bad value of a named query parameter answers. The
// paging rules are the public API's; the control API's own lists only get the general checks.
function queryExpectation(op: Operation, p: Parameter, value: string): Expect | undefined {
  const s = resolve(op.doc, p.schema) ?? {};
  const paging = op.base === '/v1';
  if (paging && p.name === 'limit' && ['-1', '0', '99999999999999999999'].includes(value)) {
    return op.method === 'GET' && op.pathParams.length === 0 ? { status: [200] } : undefined;
  }
  if (value !== 'abc') {
    return undefined;
  }
  const named = ['cursor', 'updated_since', 'created_after', 'created_before'].includes(p.name);
  if (s.type === 'integer' || s.type === 'number' || s.enum || (paging && named)) {
    return invalid(op, p.name);
  }
  return undefined;
}

export function queryCases(op: Operation): Case[] {
  const withBody = baseRequest(op);
  const cases: Case[] = [];
  for (const p of op.queryParams) {
    for (const junk of QUERY_JUNK) {
      cases.push({
        name: `?${p.name}=${junk.name}`,
        ...withBody,
        query: { [p.name]: junk.value },
        expect: queryExpectation(op, p, junk.value),
      });
    }
    for (const [name, raw] of rawQueryJunk(p.name)) {
      cases.push({ name: `?${p.name} ${name}`, ...withBody, rawQuery: raw });
    }
  }
  cases.push(
    { name: 'an unknown query parameter', ...withBody, query: { zzz_unknown: 'x' } },
    {
      name: 'prototype-named query parameters',
      ...withBody,
      // Built from entries: a literal's __proto__ would set the prototype, not a key.
      query: Object.fromEntries([
        ['__proto__', 'x'],
        ['constructor', 'y'],
        ['a[b]', 'c'],
      ]),
    },
    { name: 'a broken escape in an unknown parameter', ...withBody, rawQuery: '%ZZ=%ZZ&&=&' },
    { name: 'a 10 KB unknown parameter name', ...withBody, query: { ['k'.repeat(10 * KB)]: '1' } },
  );
  return cases;
}

export const queries: Group = { name: 'junk query parameters', cases: queryCases };
