import { randomUUID } from 'node:crypto';
import { type Operation, usesEnvelope } from './document';
import { baseBody } from './sample';

// What a hostile request is, and what its answer must be.

export type Who = 'write' | 'read' | 'nobody' | 'revoked' | 'unpaid' | 'admin';

export interface Expect {
  status?: number[];
  code?: string;
  field?: string;
  /** Statuses that would break the rule (a working credential is never 401). */
  not?: number[];
  notField?: string;
  /** The methods a 405's Allow header must list. */
  allow?: string[];
}

export interface Case {
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

/** The cases of one concern for one operation; none where the concern does not apply. */
export interface Group {
  name: string;
  cases: (op: Operation) => Case[];
}

export const JSON_CT = { 'Content-Type': 'application/json' };

export const fill = (path: string, value: (name: string) => string) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => value(name));
export const concrete = (op: Operation) => fill(op.path, () => randomUUID());
export const isWrite = (op: Operation) => ['POST', 'PATCH', 'DELETE'].includes(op.method);
export const hasBody = (op: Operation) => op.method !== 'GET';

/** The base body as JSON where the method carries a body, so a case's one fault is elsewhere. */
export function baseRequest(op: Operation): Partial<Case> {
  return hasBody(op) ? { body: JSON.stringify(baseBody(op).body), headers: JSON_CT } : {};
}

/** The precise answer when the envelope is the operation's error form; else only the status. */
export function invalid(op: Operation, field?: string): Expect {
  if (!usesEnvelope(op, 400)) {
    return { status: [400] };
  }
  return field === undefined
    ? { status: [400], code: 'invalid_request' }
    : { status: [400], code: 'invalid_request', field };
}
