import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { Exchange } from './support/contract';
import { widgetRoutes } from './support/fixture-routes';
import { type Client, type Harness, harness, type Reply } from './support/harness';

// Every operation of /v1/openapi.json and /__admin/openapi.json, read from the app at collection
// time (resources added later are covered without touching this file), gets a table of hostile
// requests. Whatever comes back must be a documented answer (the harness checks each one with
// prism-http), never 5xx, an error envelope whose request_id is the X-Request-Id header, and
// free of stack traces and internals (DESIGN, Errors). Where the spec names the answer (401,
// 400 on malformed JSON, 404 and 405 on routes), the case asserts it.

type Base = '/v1' | '/__admin';

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  pattern?: string;
  minItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

interface MediaType {
  schema?: Schema;
}

interface DocOperation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
  security?: Record<string, string[]>[];
}

interface Document {
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, DocOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

interface Operation {
  base: Base;
  method: string;
  path: string;
  doc: Document;
  op: DocOperation;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The JSON body schema, resolved, when the operation takes JSON. */
  json: Schema | undefined;
  mediaTypes: string[];
  /** The credential middleware answers before anything else. */
  secured: boolean;
}

const VERBS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const ERROR_REF = '#/components/schemas/Error';

// spec, Errors: the code of every status.
const STATUS_OF_CODE: Record<string, number> = {
  invalid_request: 400,
  unauthorized: 401,
  plan_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  server_error: 500,
};

// What a client must never see (DESIGN, Errors: no stack traces or internals leak).
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\bat (?:async )?[^\s"]*\s?\(?(?:file:|node:|\/)[^\s")]*:\d+:\d+/],
  ['stack lines', /(?:\\n|\n)\s+at\s/],
  ['a source location', /\.(?:[cm]?[jt]sx?):\d+/],
  ['a path on the server', /\/work\/|\/home\/|\/usr\/|node_modules|file:\/\/|\/etc\/passwd/],
  [
    'an exception name',
    /\b(?:TypeError|ReferenceError|SyntaxError|RangeError|URIError|ZodError|HTTPException)\b/,
  ],
  [
    'internal detail',
    /secret internals|Unexpected token|Unexpected end of JSON|Maximum call stack|is not a function|Cannot read propert|undefined is not|\[object Object\]/,
  ],
];

// ---------------------------------------------------------------------------------------------
// The documents, at collection time.

const probe = harness({ rateLimit: null }, { extend: widgetRoutes });

async function load(base: Base): Promise<Document> {
  const res = await probe.app.request(`${base}/openapi.json`);
  return (await res.json()) as Document;
}

function resolve(doc: Document, schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let hops = 0; s?.$ref !== undefined && hops < 10; hops++) {
    s = doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')];
  }
  return s;
}

function operationsOf(base: Base, doc: Document): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const verb of VERBS) {
      const op = item[verb];
      if (!op) {
        continue;
      }
      const params = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const jsonType = Object.keys(content).find((t) => /^application\/([\w.-]+\+)?json/i.test(t));
      const security = op.security ?? doc.security ?? [];
      out.push({
        base,
        method: verb.toUpperCase(),
        path,
        doc,
        op,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        json: jsonType === undefined ? undefined : resolve(doc, content[jsonType]?.schema),
        mediaTypes: Object.keys(content),
        secured: base === '/v1' && security.length > 0,
      });
    }
  }
  return out;
}

const documents = { '/v1': await load('/v1'), '/__admin': await load('/__admin') };
const operations = [
  ...operationsOf('/v1', documents['/v1']),
  ...operationsOf('/__admin', documents['/__admin']),
];

// ---------------------------------------------------------------------------------------------
// Values.

const NONE = Symbol('no sample');

/** A value the schema accepts, or NONE when one cannot be built with confidence. */
function sample(doc: Document, raw: Schema | undefined): unknown {
  const s = resolve(doc, raw);
  if (!s) {
    return NONE;
  }
  if (s.enum && s.enum.length > 0) {
    return s.enum[0];
  }
  const alternative = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (alternative) {
    return sample(doc, alternative);
  }
  switch (s.type) {
    case 'string': {
      if (s.pattern !== undefined) {
        return NONE;
      }
      const byFormat: Record<string, string> = {
        uuid: randomUUID(),
        date: '2026-01-15',
        'date-time': '2030-01-15T10:00:00.000Z',
        email: 'robust@example.com',
        uri: 'https://example.com/robust',
        url: 'https://example.com/robust',
      };
      if (s.format !== undefined) {
        return byFormat[s.format] ?? NONE;
      }
      return 'r'.repeat(Math.max(1, s.minLength ?? 1));
    }
    case 'integer':
    case 'number': {
      const exclusive = s.exclusiveMinimum === true ? 1 : 0;
      const low = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : undefined;
      const n = low ?? (s.minimum ?? 0) + exclusive;
      return s.maximum !== undefined && n > s.maximum ? NONE : Math.max(n, s.minimum ?? n);
    }
    case 'boolean':
      return true;
    case 'array': {
      if ((s.minItems ?? 0) === 0) {
        return [];
      }
      const item = sample(doc, s.items);
      return item === NONE ? NONE : Array.from({ length: s.minItems ?? 1 }, () => item);
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) {
        const value = sample(doc, s.properties?.[name]);
        if (value === NONE) {
          return NONE;
        }
        out[name] = value;
      }
      return out;
    }
    default:
      return NONE;
  }
}

/** The request body every body case starts from: valid, so one change is the only fault. */
function baseBody(op: Operation): { body: Record<string, unknown>; precise: boolean } {
  if (!op.json) {
    return { body: {}, precise: false };
  }
  const value = sample(op.doc, op.json);
  return value === NONE || typeof value !== 'object' || value === null || Array.isArray(value)
    ? { body: {}, precise: false }
    : { body: value as Record<string, unknown>, precise: true };
}

const KB = 1024;
const MB = 1024 * KB;
const nested = (depth: number, open: string, close: string, leaf: string) =>
  `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;

/**
 * JSON texts of each type; `wrong` says whether the schema refuses it by type alone. Texts, not
 * values: JSON.stringify recurses, and 5000 levels overflow its stack.
 */
const TYPE_CASES: { kind: string; value: (s: Schema) => string; wrong: (s: Schema) => boolean }[] =
  [
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
function ruleBreakers(s: Schema): { name: string; value: unknown }[] {
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
const refusesHugeString = (s: Schema) =>
  s.maxLength !== undefined ||
  s.enum !== undefined ||
  ['uuid', 'date', 'date-time', 'email'].includes(s.format ?? '');

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'utf8')] : p)));

// ---------------------------------------------------------------------------------------------
// Cases.

type Who = 'write' | 'read' | 'nobody' | 'revoked' | 'unpaid' | 'admin';

interface Expect {
  status?: number[];
  code?: string;
  field?: string;
  /** Statuses that would break the rule (a working credential is never 401). */
  not?: number[];
  notField?: string;
  /** The methods a 405's Allow header must list. */
  allow?: string[];
}

interface Case {
  name: string;
  who?: Who;
  /** The path relative to the base; default: the operation's, with random UUIDs. */
  path?: string;
  method?: string;
  query?: Record<string, string>;
  /** Sent verbatim, for what URLSearchParams cannot say (repeats, broken escapes). */
  rawQuery?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  expect?: Expect;
}

interface Env {
  h: Harness;
  workspaceId: string;
  clients: Record<Who, Client>;
  keys: Record<Who, string | undefined>;
}

const JSON_CT = { 'Content-Type': 'application/json' };
const fill = (path: string, value: (name: string) => string) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => value(name));
const concrete = (op: Operation) => fill(op.path, () => randomUUID());
const isWrite = (op: Operation) => ['POST', 'PATCH', 'DELETE'].includes(op.method);
const hasBody = (op: Operation) => op.method !== 'GET';

/** Whether an error answer of this status is the spec's envelope for this operation. */
function usesEnvelope(op: Operation, status: number): boolean {
  const content = op.op.responses?.[String(status)]?.content;
  if (!content) {
    return true;
  }
  const schema = content['application/json']?.schema;
  return schema === undefined || schema.$ref === ERROR_REF;
}

/** The precise answer when the envelope is the operation's error form; else only the status. */
function invalid(op: Operation, field?: string): Expect {
  if (!usesEnvelope(op, 400)) {
    return { status: [400] };
  }
  return field === undefined
    ? { status: [400], code: 'invalid_request' }
    : { status: [400], code: 'invalid_request', field };
}

function bodyCases(op: Operation): Case[] {
  if (!hasBody(op)) {
    return [];
  }
  const { body: base, precise } = baseBody(op);
  const takesJson = op.json !== undefined;
  const baseText = JSON.stringify(base);
  const malformed = takesJson ? invalid(op) : undefined;
  const object = (...members: string[]) => `{${members.filter((m) => m !== '').join(',')}}`;
  const baseMembers = baseText.slice(1, -1);
  const cases: Case[] = [
    { name: 'the base body', body: baseText, headers: JSON_CT },
    ...['{', '{"a":', '[1,2', 'nul', '{"a":1,}', "{'a':1}", '\u0000{}', '{}garbage'].map(
      (text) => ({
        name: `malformed JSON ${JSON.stringify(text)}`,
        body: text,
        headers: JSON_CT,
        expect: malformed,
      }),
    ),
    ...['[]', '[1]', '"a string"', '42', 'null', 'true'].map((text) => ({
      name: `a JSON ${text} at the top level`,
      body: text,
      headers: JSON_CT,
      expect: op.json?.type === 'object' ? malformed : undefined,
    })),
    {
      name: 'an empty body with Content-Type: application/json',
      body: '',
      headers: JSON_CT,
      expect: malformed,
    },
    { name: 'an empty body without Content-Type', body: '' },
    { name: 'no body with Content-Type: application/json', headers: JSON_CT },
    { name: 'the base body without Content-Type', body: baseText, expect: malformed },
    ...[
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'application/jsonp',
      'json',
    ]
      .filter((type) => !op.mediaTypes.includes(type))
      .map((type) => ({
        name: `the base body as ${type}`,
        body: baseText,
        headers: { 'Content-Type': type },
        expect: malformed,
      })),
    ...['multipart/form-data; boundary=', 'multipart/form-data; boundary="unterminated']
      .filter(() => takesJson)
      .map((type) => ({
        name: `a broken multipart body (${type})`,
        body: `--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n${baseText}\r\n--xyz`,
        headers: { 'Content-Type': type },
        expect: malformed,
      })),
    // RFC 8259: JSON on the wire is UTF-8 and a charset parameter has no effect. UTF-16 bytes
    // are therefore malformed; UTF-8 bytes merely labelled utf-16 may be taken as they are.
    {
      name: 'the base body as UTF-16 with charset=utf-16',
      body: new Uint8Array(Buffer.from(`\ufeff${baseText}`, 'utf16le')),
      headers: { 'Content-Type': 'application/json; charset=utf-16' },
      expect: malformed,
    },
    {
      name: 'the base body as UTF-8 labelled charset=utf-16',
      body: baseText,
      headers: { 'Content-Type': 'application/json; charset=utf-16' },
    },
    {
      name: 'a raw NUL byte before the body',
      body: bytes([0], baseText),
      headers: JSON_CT,
      expect: malformed,
    },
    {
      name: 'invalid UTF-8 outside any string',
      body: bytes([0xff, 0xfe], baseText),
      headers: JSON_CT,
      expect: malformed,
    },
    {
      name: 'a UTF-8 byte-order mark before the body',
      body: bytes([0xef, 0xbb, 0xbf], baseText),
      headers: JSON_CT,
    },
    {
      name: 'an object nested 5000 deep',
      body: nested(5000, '{"a":', '}', '1'),
      headers: JSON_CT,
    },
    {
      name: 'an array nested 5000 deep',
      body: nested(5000, '[', ']', '1'),
      headers: JSON_CT,
      expect: op.json?.type === 'object' ? malformed : undefined,
    },
    {
      name: 'prototype-polluting keys',
      body: object(
        '"__proto__":{"polluted":true}',
        '"constructor":{"prototype":{"x":1}}',
        baseMembers,
      ),
      headers: JSON_CT,
    },
    {
      name: 'every property twice, the second time as null',
      body: object(
        baseMembers,
        ...Object.keys(op.json?.properties ?? {}).map((k) => `"${k}":null`),
      ),
      headers: JSON_CT,
    },
  ];
  for (const [prop, raw] of Object.entries(op.json?.properties ?? {})) {
    const s = resolve(op.doc, raw) ?? {};
    const exact = precise && s.type !== undefined ? invalid(op, prop) : undefined;
    const withProp = (value: unknown) => JSON.stringify({ ...base, [prop]: value });
    const withText = (text: string) => withProp('@@VALUE@@').replace('"@@VALUE@@"', text);
    const withBytes = (inside: number[]) => {
      const [before = '', after = ''] = withProp('@@BYTES@@').split('@@BYTES@@');
      return bytes(before, inside, after);
    };
    for (const t of TYPE_CASES) {
      cases.push({
        name: `${prop} as ${t.kind}`,
        body: withText(t.value(s)),
        headers: JSON_CT,
        expect: t.wrong(s) ? exact : undefined,
      });
    }
    for (const breaker of ruleBreakers(s)) {
      cases.push({
        name: `${prop} as ${breaker.name}`,
        body: withProp(breaker.value),
        headers: JSON_CT,
        expect: precise ? invalid(op, prop) : undefined,
      });
    }
    if (s.type === 'string' || s.type === undefined) {
      cases.push({
        name: `${prop} as a 1 MB string`,
        body: withProp('x'.repeat(MB)),
        headers: JSON_CT,
        expect: refusesHugeString(s) ? exact : undefined,
      });
      cases.push({
        name: `${prop} with NUL characters`,
        body: withProp('a\u0000b\u0000'),
        headers: JSON_CT,
        expect: s.enum !== undefined ? exact : undefined,
      });
      cases.push({
        name: `${prop} with invalid UTF-8 and a raw NUL`,
        body: withBytes([0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x00]),
        headers: JSON_CT,
        // A raw control character inside a JSON string is malformed JSON.
        expect: malformed,
      });
      cases.push({
        name: `${prop} with invalid UTF-8`,
        body: withBytes([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]),
        headers: JSON_CT,
        expect: s.enum !== undefined ? exact : undefined,
      });
    }
  }
  if (op.base === '/v1' && op.secured && isWrite(op)) {
    cases.push(
      {
        name: 'malformed JSON with a read-only key',
        who: 'read',
        body: '{',
        headers: JSON_CT,
        expect: { status: [400, 403] },
      },
      { name: 'the base body with a read-only key', who: 'read', body: baseText, headers: JSON_CT },
    );
  }
  return cases;
}

const QUERY_JUNK: { name: string; value: string }[] = [
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

function queryCases(op: Operation): Case[] {
  const { body } = baseBody(op);
  const withBody: Partial<Case> = hasBody(op)
    ? { body: JSON.stringify(body), headers: JSON_CT }
    : {};
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
    for (const [name, raw] of [
      ['repeated', `${p.name}=1&${p.name}=2`],
      ['a broken escape %ZZ', `${p.name}=%ZZ`],
      ['a lone %', `${p.name}=%`],
      ['an encoded NUL', `${p.name}=%00`],
      ['an overlong UTF-8 escape', `${p.name}=%C0%AF`],
      ['no = sign', p.name],
    ] as const) {
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

function pathCases(op: Operation): Case[] {
  if (op.pathParams.length === 0) {
    return [];
  }
  const { body, precise } = baseBody(op);
  const withBody: Partial<Case> = hasBody(op)
    ? { body: JSON.stringify(body), headers: JSON_CT }
    : {};
  const isUuid = (name: string) =>
    resolve(op.doc, op.pathParams.find((p) => p.name === name)?.schema)?.format === 'uuid';
  const allUuid = op.pathParams.every((p) => isUuid(p.name));
  const documents404 = op.op.responses?.['404'] !== undefined;
  const variants: { name: string; value: string; expect?: Expect }[] = [
    {
      name: 'a random UUID',
      value: randomUUID(),
      expect:
        allUuid && documents404 && (precise || !hasBody(op))
          ? { status: [404], code: 'not_found' }
          : undefined,
    },
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
  return variants.map((v) => ({
    name: `path parameters as ${v.name}`,
    ...withBody,
    path: fill(op.path, () => v.value),
    expect: v.expect,
  }));
}

const unauthorized: Expect = { status: [401], code: 'unauthorized' };

function credentialCases(op: Operation): Case[] {
  const { body } = baseBody(op);
  const withBody: Partial<Case> = hasBody(op) ? { body: JSON.stringify(body) } : {};
  const ct = hasBody(op) ? JSON_CT : {};
  if (!op.secured) {
    // An operation that takes no credential (the control API) ignores whatever is sent.
    return ['Bearer', 'Basic abc', `Bearer ${'t'.repeat(20 * KB)}`].map((value) => ({
      name: `Authorization: ${value.slice(0, 20)}`,
      ...withBody,
      headers: { ...ct, Authorization: value },
    }));
  }
  const as = (name: string, headers: Record<string, string>, expect?: Expect): Case => ({
    name,
    who: 'nobody',
    ...withBody,
    headers: { ...ct, ...headers },
    ...(expect ? { expect } : {}),
  });
  const works: Expect = { not: [401, 402, 403] };
  return [
    as('no credential', {}, unauthorized),
    as('Authorization: Bearer', { Authorization: 'Bearer' }, unauthorized),
    as('Authorization: "Bearer " (empty token)', { Authorization: 'Bearer ' }, unauthorized),
    as('Authorization: Basic abc', { Authorization: 'Basic abc' }, unauthorized),
    as(
      'Authorization: Bearer svc_live_wrong',
      { Authorization: 'Bearer svc_live_wrong' },
      unauthorized,
    ),
    as('a 20 KB bearer token', { Authorization: `Bearer ${'t'.repeat(20 * KB)}` }, unauthorized),
    as(
      'a 20 KB svc_live_ bearer token',
      { Authorization: `Bearer svc_live_${'t'.repeat(20 * KB)}` },
      unauthorized,
    ),
    as('two bearer tokens', { Authorization: 'Bearer svc_live_a svc_live_b' }, unauthorized),
    as('an empty Authorization header', { Authorization: '' }, unauthorized),
    as('X-API-Key empty', { 'X-API-Key': '' }, unauthorized),
    as('X-API-Key of spaces', { 'X-API-Key': '   ' }, unauthorized),
    as('X-API-Key wrong', { 'X-API-Key': 'svc_live_wrong' }, unauthorized),
    as('X-API-Key as Bearer', { 'X-API-Key': 'Bearer svc_live_wrong' }, unauthorized),
    as('X-API-Key of 20 KB', { 'X-API-Key': 'k'.repeat(20 * KB) }, unauthorized),
    as('@write: lower-case "bearer <key>" works', { Authorization: 'bearer @write' }, works),
    as('@write: "BEARER <key>" works', { Authorization: 'BEARER @write' }, works),
    as('@write: X-API-Key works', { 'X-API-Key': '@write' }, works),
    as('@write: a key with a tab after Bearer', { Authorization: 'Bearer\t@write' }),
    as('@write: the key with junk appended', { Authorization: 'Bearer @writeX' }, unauthorized),
    as('@write: the key in Basic', { Authorization: 'Basic @write' }, unauthorized),
    as('@write: a client-chosen X-Request-Id', {
      Authorization: 'Bearer @write',
      'X-Request-Id': 'client-chosen',
    }),
    as(
      'no credential, a client-chosen X-Request-Id',
      { 'X-Request-Id': 'x'.repeat(10 * KB) },
      unauthorized,
    ),
    {
      name: 'a revoked key',
      who: 'revoked',
      ...withBody,
      headers: { ...ct },
      expect: unauthorized,
    },
    {
      name: 'a workspace without a subscription',
      who: 'unpaid',
      ...withBody,
      headers: { ...ct },
      expect: { status: [402], code: 'plan_required' },
    },
    ...(op.method === 'GET'
      ? [{ name: 'a read-only key may read', who: 'read' as const, expect: works }]
      : []),
  ];
}

function idempotencyCases(op: Operation): Case[] {
  if (op.base !== '/v1' || !op.secured) {
    return [];
  }
  const { body } = baseBody(op);
  const ct = hasBody(op) ? JSON_CT : {};
  const withBody: Partial<Case> = hasBody(op) ? { body: JSON.stringify(body) } : {};
  const key = (length: number) => 'i'.repeat(length);
  if (!isWrite(op)) {
    // spec, Endpoints: the header applies to POST, PATCH and DELETE; elsewhere it means nothing.
    return [
      {
        name: 'an Idempotency-Key of 10000 characters on a read',
        headers: { 'Idempotency-Key': key(10_000) },
        expect: { notField: 'Idempotency-Key' },
      },
    ];
  }
  const tooLong = usesEnvelope(op, 400)
    ? { status: [400], code: 'invalid_request', field: 'Idempotency-Key' }
    : { status: [400] };
  const cases: Case[] = [
    { n: 256, expect: tooLong },
    { n: 10_000, expect: tooLong },
    { n: 255, expect: { notField: 'Idempotency-Key' } },
  ].map(({ n, expect: e }) => ({
    name: `an Idempotency-Key of ${n} characters`,
    ...withBody,
    headers: { ...ct, 'Idempotency-Key': key(n) },
    expect: e,
  }));
  cases.push({
    name: 'an empty Idempotency-Key',
    ...withBody,
    headers: { ...ct, 'Idempotency-Key': '' },
  });
  // spec, Limits: a replay is the first answer; an error's request_id must still be the
  // X-Request-Id of the answer that carries it.
  const path = concrete(op);
  const failing = op.json === undefined ? withBody : { body: '{' };
  const replayKey = `replay-${randomUUID()}`;
  for (const attempt of ['first', 'replayed']) {
    cases.push({
      name: `a failing request, ${attempt}, under one Idempotency-Key`,
      path,
      ...failing,
      headers: { ...ct, 'Idempotency-Key': replayKey },
    });
  }
  return cases;
}

interface Group {
  name: string;
  cases: (op: Operation) => Case[];
}

const GROUPS: Group[] = [
  { name: 'hostile bodies', cases: bodyCases },
  { name: 'junk query parameters', cases: queryCases },
  { name: 'junk path parameters', cases: pathCases },
  { name: 'bad credentials', cases: credentialCases },
  { name: 'bad Idempotency-Keys', cases: idempotencyCases },
];

// ---------------------------------------------------------------------------------------------
// Sending and judging.

async function environment(): Promise<Env> {
  const h = harness({ rateLimit: null }, { extend: widgetRoutes });
  const ws = await h.workspace({ name: 'Robust Roofing' });
  const unpaid = await h.workspace({ name: 'Lapsed Roofing', subscription_active: false });
  const minted = await h.admin.post(`/workspaces/${ws.id}/keys`, { access: 'write' });
  const revoked = await h.admin.delete(`/keys/${minted.body.id}`);
  if (minted.status !== 201 || revoked.status !== 200) {
    throw new Error(`could not mint and revoke a key: ${minted.text} ${revoked.text}`);
  }
  return {
    h,
    workspaceId: ws.id,
    clients: {
      write: ws.api,
      read: ws.read,
      nobody: h.anonymous,
      revoked: h.as(minted.body.key),
      unpaid: unpaid.api,
      admin: h.admin,
    },
    keys: {
      write: ws.keys.write.key,
      read: ws.keys.read.key,
      nobody: undefined,
      revoked: minted.body.key,
      unpaid: unpaid.keys.write.key,
      admin: undefined,
    },
  };
}

function parseQuery(raw: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const pair of raw.split('&').filter((p) => p !== '')) {
    const [k = '', v = ''] = pair.split('=');
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replaceAll('+', ' '));
      } catch {
        return s;
      }
    };
    const key = decode(k);
    const prev = out[key];
    out[key] = prev === undefined ? decode(v) : [prev, decode(v)].flat();
  }
  return out;
}

const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/** For a query the client cannot write: the same request and the same contract check. */
async function sendVerbatim(
  env: Env,
  base: Base,
  method: string,
  path: string,
  rawQuery: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
): Promise<Reply> {
  const res = await env.h.app.request(`${base}${path}?${rawQuery}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: the checks below say so
  }
  const exchange: Exchange = {
    method,
    path,
    query: parseQuery(rawQuery),
    requestHeaders: lower(headers),
    requestBody: body,
    status: res.status,
    responseHeaders: lower(Object.fromEntries(res.headers)),
    responseBody: parsed,
  };
  await env.h.checkContract(base, exchange, true);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

async function send(env: Env, op: Operation, c: Case): Promise<Reply> {
  const who = c.who ?? (op.base === '/v1' ? 'write' : 'admin');
  const method = c.method ?? op.method;
  const path = c.path ?? concrete(op);
  // '@write' in a header stands for the workspace's write key.
  const headers = Object.fromEntries(
    Object.entries(c.headers ?? {}).map(([k, v]) => [k, v.replace('@write', env.keys.write ?? '')]),
  );
  if (c.rawQuery !== undefined) {
    const key = env.keys[who];
    const auth: Record<string, string> =
      key === undefined ? {} : { Authorization: `Bearer ${key}` };
    return sendVerbatim(env, op.base, method, path, c.rawQuery, { ...auth, ...headers }, c.body);
  }
  return env.clients[who].raw(method, path, {
    headers,
    ...(c.query ? { query: c.query } : {}),
    ...(c.body === undefined ? {} : { body: c.body }),
  });
}

const isDeliberateFault = (op: Operation) => op.base === '/v1' && op.path === '/boom';

/** The rules that hold for every answer. */
function invariants(op: Operation, method: string, reply: Reply): string[] {
  const problems: string[] = [];
  const requestId = reply.headers.get('x-request-id');
  if (!requestId) {
    problems.push('no X-Request-Id header');
  }
  // The fixture's GET /boom throws on purpose: its 500 must still be the fixed envelope.
  if (reply.status >= 500 && !(isDeliberateFault(op) && reply.status === 500)) {
    problems.push(`answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  }
  if (reply.status >= 400 && usesEnvelope(op, reply.status)) {
    const body = reply.body;
    const error = body?.error;
    const keys = error && typeof error === 'object' ? Object.keys(error).sort() : [];
    const allowed = ['code', 'doc_url', 'field', 'message', 'request_id'];
    if (
      typeof body !== 'object' ||
      body === null ||
      Object.keys(body).join() !== 'error' ||
      typeof error?.code !== 'string' ||
      typeof error.message !== 'string' ||
      typeof error.request_id !== 'string' ||
      typeof error.doc_url !== 'string' ||
      (error.field !== undefined && typeof error.field !== 'string') ||
      keys.some((k) => !allowed.includes(k))
    ) {
      problems.push(`not the error envelope: ${reply.text.slice(0, 300)}`);
    } else {
      if (error.request_id !== requestId) {
        problems.push(`request_id ${error.request_id} is not X-Request-Id ${requestId}`);
      }
      if (STATUS_OF_CODE[error.code] !== reply.status) {
        problems.push(`code ${error.code} with status ${reply.status}`);
      }
      if (!String(error.doc_url).endsWith(`#${error.code}`)) {
        problems.push(`doc_url ${error.doc_url} does not name ${error.code}`);
      }
    }
    if (!reply.headers.get('content-type')?.startsWith('application/json')) {
      problems.push(`error answered as ${reply.headers.get('content-type')}`);
    }
  }
  if (reply.status === 405) {
    const allow = reply.headers.get('allow');
    if (!allow) {
      problems.push('405 without Allow');
    } else if (allow.split(/,\s*/).includes(method)) {
      problems.push(`405 for ${method} whose Allow (${allow}) lists ${method}`);
    }
  }
  for (const [what, pattern] of LEAKS) {
    const hit = pattern.exec(reply.text);
    if (hit) {
      problems.push(
        `body leaks ${what}: …${reply.text.slice(Math.max(0, hit.index - 60), hit.index + 80)}…`,
      );
    }
  }
  return problems;
}

function judge(e: Expect | undefined, reply: Reply): string[] {
  if (!e) {
    return [];
  }
  const problems: string[] = [];
  const got = `${reply.status} ${reply.text.slice(0, 200)}`;
  if (e.status && !e.status.includes(reply.status)) {
    problems.push(`expected ${e.status.join(' or ')}, got ${got}`);
  }
  if (e.not?.includes(reply.status)) {
    problems.push(`must not be ${reply.status}: ${got}`);
  }
  if (e.code !== undefined && reply.body?.error?.code !== e.code) {
    problems.push(`expected code ${e.code}, got ${got}`);
  }
  if (e.field !== undefined && reply.body?.error?.field !== e.field) {
    problems.push(`expected field ${e.field}, got ${got}`);
  }
  if (e.notField !== undefined && reply.body?.error?.field === e.notField) {
    problems.push(`must not blame ${e.notField}: ${got}`);
  }
  const allow = (reply.headers.get('allow') ?? '').split(/,\s*/).sort().join(', ');
  if (e.allow !== undefined && allow !== [...e.allow].sort().join(', ')) {
    problems.push(`Allow is "${allow}", expected "${[...e.allow].sort().join(', ')}"`);
  }
  return problems;
}

async function runCase(env: Env, op: Operation, c: Case): Promise<string[]> {
  let reply: Reply;
  try {
    reply = await send(env, op, c);
  } catch (err) {
    return [`${c.name}: ${String((err as Error).message ?? err).slice(0, 600)}`];
  }
  return [...invariants(op, c.method ?? op.method, reply), ...judge(c.expect, reply)].map(
    (p) => `${c.name}: ${p}`,
  );
}

async function runAll(env: Env, op: Operation, cases: Case[]): Promise<string[]> {
  const problems: string[] = [];
  for (const c of cases) {
    problems.push(...(await runCase(env, op, c)));
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The tests.

test('both documents have operations to walk', () => {
  expect(operations.filter((o) => o.base === '/v1').length).toBeGreaterThan(5);
  expect(operations.filter((o) => o.base === '/__admin').length).toBeGreaterThan(5);
});

describe.each(operations.map((op) => [`${op.base} ${op.method} ${op.path}`, op] as const))(
  '%s',
  (_, op) => {
    const groups = GROUPS.map((g) => [g.name, g.cases(op)] as const).filter(
      ([, cases]) => cases.length > 0,
    );
    test.each(groups.map(([name, cases]) => [`${name} (${cases.length} cases)`, cases] as const))(
      '%s never fault and answer as the spec says',
      async (_title, cases) => {
        const env = await environment();
        const problems = await runAll(env, op, cases);
        expect(problems).toEqual([]);
      },
    );
  },
);

// Paths with their documented verbs, for the routing rules (spec, Errors: 404 and 405).
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

// The request log keeps what the hostile requests sent (capped bodies, odd bytes, long queries);
// reading it back through the control API must not fault either.
const writeOp = operations.find((o) => o.base === '/v1' && o.json !== undefined && o.secured);
const logOp = operations.find(
  (o) => o.base === '/__admin' && o.method === 'GET' && o.path === '/requests',
);

test.skipIf(!writeOp || !logOp)('the request log of hostile requests reads back', async () => {
  const env = await environment();
  const [hostile, log] = [writeOp, logOp] as [Operation, Operation];
  await runAll(env, hostile, [...bodyCases(hostile), ...queryCases(hostile)]);
  const read = (query: Record<string, string>): Case => ({
    name: `GET /requests?${new URLSearchParams(query)}`,
    who: 'admin',
    query,
    expect: { status: [200] },
  });
  const problems = await runAll(env, log, [
    read({}),
    read({ workspace_id: env.workspaceId, limit: '200' }),
    read({ status: '4xx' }),
    read({ status: '400', method: hostile.method }),
    read({ path: fill(hostile.path, () => '') }),
    read({ limit: '1' }),
  ]);
  expect(problems).toEqual([]);
});
