import { randomUUID } from 'node:crypto';
import type { Expect } from './cases';
import type { Schema } from './document';

// The hostile values: bodies, queries, path values and credentials.

export const KB = 1024;
export const MB = 1024 * KB;

export const nested = (depth: number, open: string, close: string, leaf: string) =>
  `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;

export const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'utf8')] : p)));

export const MALFORMED_JSON = [
  '{',
  '{"a":',
  '[1,2',
  'nul',
  '{"a":1,}',
  "{'a':1}",
  '\u0000{}',
  '{}garbage',
];
export const TOP_LEVEL_JSON = ['[]', '[1]', '"a string"', '42', 'null', 'true'];
export const FOREIGN_MEDIA_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/jsonp',
  'json',
];
export const BROKEN_MULTIPART = [
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary="unterminated',
];

/**
 * JSON texts of each type; `wrong` says whether the schema refuses it by type alone. Texts, not
 * values: JSON.stringify recurses, and 5000 levels overflow its stack.
 */
export const TYPE_CASES: {
  kind: string;
  value: (s: Schema) => string;
  wrong: (s: Schema) => boolean;
}[] = [
  {
    kind: 'number',
    value: (s) => (s.type === 'integer' ? '1.5' : '42'),
    wrong: (s) => s.type !== 'number',
  },
  { kind: 'string', value: () => '"abc"', wrong: (s) => s.type !== 'string' },
  { kind: 'boolean', value: () => 'true', wrong: (s) => s.type !== 'boolean' },
  { kind: 'array', value: () => '[1]', wrong: (s) => s.type !== 'array' },
  { kind: 'object', value: () => '{"a":1}', wrong: (s) => s.type !== 'object' },
  { kind: 'null', value: () => 'null', wrong: (s) => s.nullable !== true },
  {
    kind: 'an object nested 5000 deep',
    value: () => nested(5000, '{"a":', '}', '1'),
    wrong: (s) => s.type !== 'object',
  },
  {
    kind: 'an array nested 5000 deep',
    value: () => nested(5000, '[', ']', '1'),
    wrong: (s) => s.type !== 'array',
  },
];

/** Values of the right type that break the property's rule (spec, Errors: 400, `field`). */
export function ruleBreakers(s: Schema): { name: string; value: unknown }[] {
  const out: { name: string; value: unknown }[] = [];
  if (s.enum && !s.enum.includes('not-in-enum')) {
    out.push({ name: 'a value outside the enumeration', value: 'not-in-enum' });
  }
  const badFormat: Record<string, string> = {
    uuid: 'not-a-uuid',
    date: '2026-02-30',
    'date-time': 'yesterday',
    email: 'not-an-email',
    uri: 'not a url',
    url: 'not a url',
  };
  if (s.type === 'string' && s.format !== undefined && badFormat[s.format] !== undefined) {
    out.push({ name: `a malformed ${s.format}`, value: badFormat[s.format] });
  }
  if (s.type === 'string' && (s.minLength ?? 0) >= 1) {
    out.push({ name: 'an empty string', value: '' });
  }
  if ((s.type === 'integer' || s.type === 'number') && s.minimum !== undefined) {
    out.push({ name: 'below the minimum', value: s.minimum - 1 });
  }
  if ((s.type === 'integer' || s.type === 'number') && s.maximum !== undefined) {
    out.push({ name: 'above the maximum', value: s.maximum + 1 });
  }
  return out;
}

/** A 1 MB string breaks a property that has a length, an enumeration or a format. */
export const refusesHugeString = (s: Schema) =>
  s.maxLength !== undefined ||
  s.enum !== undefined ||
  ['uuid', 'date', 'date-time', 'email'].includes(s.format ?? '');

export const QUERY_JUNK: { name: string; value: string }[] = [
  { name: 'abc', value: 'abc' },
  { name: '-1', value: '-1' },
  { name: '0', value: '0' },
  { name: '1e999', value: '1e999' },
  { name: '1.5', value: '1.5' },
  { name: '99999999999999999999', value: '99999999999999999999' },
  { name: 'an empty string', value: '' },
  { name: 'a 10 KB string', value: 'q'.repeat(10 * KB) },
  { name: '10 KB of digits', value: '9'.repeat(10 * KB) },
  { name: 'NUL and control characters', value: '\u0000\u0001\n\r\t' },
  { name: 'invalid surrogates', value: '\ud800x\udfff' },
  { name: 'the literal text %ZZ', value: '%ZZ' },
  { name: 'JSON', value: '{"$gt":""}' },
  { name: 'true', value: 'true' },
];

/** Raw query strings for one parameter that URLSearchParams cannot write. */
export const rawQueryJunk = (p: string): [string, string][] => [
  ['repeated', `${p}=1&${p}=2`],
  ['a broken escape %ZZ', `${p}=%ZZ`],
  ['a lone %', `${p}=%`],
  ['an encoded NUL', `${p}=%00`],
  ['an overlong UTF-8 escape', `${p}=%C0%AF`],
  ['no = sign', p],
];

/** Path parameter values besides a random UUID; new UUIDs on every call. */
export const pathJunk = (): { name: string; value: string; expect?: Expect }[] => [
  { name: 'an upper-case random UUID', value: randomUUID().toUpperCase() },
  { name: 'a UUID without dashes', value: randomUUID().replaceAll('-', '') },
  { name: 'a non-UUID string', value: 'not-a-uuid', expect: { status: [400, 404] } },
  { name: 'a 5000-character string', value: 'p'.repeat(5000), expect: { status: [400, 404] } },
  { name: 'percent-encoded junk', value: '%00%FF%2E%2E%2F%3Cscript%3E%22%27%5C' },
  { name: 'a broken escape', value: '%ZZ%' },
  { name: 'an encoded slash', value: `${randomUUID()}%2Fextra` },
  { name: 'a NUL-terminated UUID', value: `${randomUUID()}%00` },
  { name: 'unicode', value: encodeURIComponent('ünïcødé-🙂') },
  { name: 'dots', value: '..' },
];

/** Authorization values an operation that takes no credential ignores. */
export const IGNORED_AUTHORIZATIONS = ['Bearer', 'Basic abc', `Bearer ${'t'.repeat(20 * KB)}`];

/**
 * Credential headers sent without the client's own; '@write' stands for the workspace's write
 * key. `refused` is 401 unauthorized, `works` any answer but 401, 402 or 403, `any` no fault.
 */
export const CREDENTIALS: [string, Record<string, string>, 'refused' | 'works' | 'any'][] = [
  ['no credential', {}, 'refused'],
  ['Authorization: Bearer', { Authorization: 'Bearer' }, 'refused'],
  ['Authorization: "Bearer " (empty token)', { Authorization: 'Bearer ' }, 'refused'],
  ['Authorization: Basic abc', { Authorization: 'Basic abc' }, 'refused'],
  ['Authorization: Bearer svc_live_wrong', { Authorization: 'Bearer svc_live_wrong' }, 'refused'],
  ['a 20 KB bearer token', { Authorization: `Bearer ${'t'.repeat(20 * KB)}` }, 'refused'],
  [
    'a 20 KB svc_live_ bearer token',
    { Authorization: `Bearer svc_live_${'t'.repeat(20 * KB)}` },
    'refused',
  ],
  ['two bearer tokens', { Authorization: 'Bearer svc_live_a svc_live_b' }, 'refused'],
  ['an empty Authorization header', { Authorization: '' }, 'refused'],
  ['X-API-Key empty', { 'X-API-Key': '' }, 'refused'],
  ['X-API-Key of spaces', { 'X-API-Key': '   ' }, 'refused'],
  ['X-API-Key wrong', { 'X-API-Key': 'svc_live_wrong' }, 'refused'],
  ['X-API-Key as Bearer', { 'X-API-Key': 'Bearer svc_live_wrong' }, 'refused'],
  ['X-API-Key of 20 KB', { 'X-API-Key': 'k'.repeat(20 * KB) }, 'refused'],
  ['@write: lower-case "bearer <key>" works', { Authorization: 'bearer @write' }, 'works'],
  ['@write: "BEARER <key>" works', { Authorization: 'BEARER @write' }, 'works'],
  ['@write: X-API-Key works', { 'X-API-Key': '@write' }, 'works'],
  ['@write: a key with a tab after Bearer', { Authorization: 'Bearer\t@write' }, 'any'],
  ['@write: the key with junk appended', { Authorization: 'Bearer @writeX' }, 'refused'],
  ['@write: the key in Basic', { Authorization: 'Basic @write' }, 'refused'],
  [
    '@write: a client-chosen X-Request-Id',
    { Authorization: 'Bearer @write', 'X-Request-Id': 'client-chosen' },
    'any',
  ],
  [
    'no credential, a client-chosen X-Request-Id',
    { 'X-Request-Id': 'x'.repeat(10 * KB) },
    'refused',
  ],
];
