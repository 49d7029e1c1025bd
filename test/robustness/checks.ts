import type { Reply } from '../support/harness';
import type { Expect } from './cases';
import { type Operation, usesEnvelope } from './document';

// The rules every answer obeys: never 5xx, an error envelope whose request_id is the
// X-Request-Id header, an Allow that does not deny the method, and free of stack traces and
// internals (DESIGN, Errors). Then what a case expects besides.

// spec, Errors: the code of every status, copied from the spec on purpose (not imported from
// src), so that the server's own table is checked against it.
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

const isDeliberateFault = (op: Operation) => op.base === '/v1' && op.path === '/boom';

function envelopeProblems(reply: Reply, requestId: string | null): string[] {
  const problems: string[] = [];
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
  return problems;
}

function allowProblems(method: string, reply: Reply): string[] {
  if (reply.status !== 405) {
    return [];
  }
  const allow = reply.headers.get('allow');
  if (!allow) {
    return ['405 without Allow'];
  }
  return allow.split(/,\s*/).includes(method)
    ? [`405 for ${method} whose Allow (${allow}) lists ${method}`]
    : [];
}

function leakProblems(reply: Reply): string[] {
  const problems: string[] = [];
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

/** The rules that hold for every answer. */
export function invariants(op: Operation, method: string, reply: Reply): string[] {
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
    problems.push(...envelopeProblems(reply, requestId));
  }
  return [...problems, ...allowProblems(method, reply), ...leakProblems(reply)];
}

/** What the case itself expects of the answer. */
export function judge(e: Expect | undefined, reply: Reply): string[] {
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
