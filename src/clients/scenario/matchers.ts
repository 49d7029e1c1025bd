// FORMAT.md, Matchers: a leaf of an expectation is a literal or a matcher object. An object is a
// matcher only when every key is a matcher key with a valid value for it, so `{type: homeowner}`
// stays a literal (a contact's type) while `{type: string}` is a matcher.

export interface Mismatch {
  /** Where in the answer, `body.data.0.id` or `header.x-request-id`. */
  path: string;
  expected: string;
  got: string;
}

const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

type Check = (value: unknown) => boolean;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

const VALID: Record<string, Check> = {
  type: (v) => typeof v === 'string' && (TYPES as readonly string[]).includes(v),
  match: (v) => typeof v === 'string' && compiles(v),
  exists: (v) => typeof v === 'boolean',
  length: (v) => (Number.isInteger(v) && (v as number) >= 0) || isMatcher(v),
  gte: isNumber,
  lte: isNumber,
  oneOf: Array.isArray,
  uuid: (v) => v === true,
  datetime: (v) => v === true,
  equals: () => true,
  allOf: Array.isArray,
};

/**
 * A captured value substituted whole into an expectation: data, compared as a literal all the
 * way down, never read as a matcher (a record that holds `{length: 3}` is still a record).
 */
export class Literal {
  constructor(readonly value: unknown) {}
}

export const MATCHER_KEYS = Object.keys(VALID);

function compiles(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isMatcher(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) {
    return false;
  }
  const entries = Object.entries(value);
  return entries.length > 0 && entries.every(([k, v]) => VALID[k]?.(v) === true);
}

/** Matches `actual` against `expected` (literal subset or matcher); the first mismatch or null. */
export function match(
  expected: unknown,
  actual: unknown,
  path: string,
  literal = false,
): Mismatch | null {
  if (expected instanceof Literal) {
    return match(expected.value, actual, path, true);
  }
  if (!literal && isMatcher(expected)) {
    return matchMatcher(expected, actual, path);
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      return miss(path, render(expected), actual);
    }
    if (actual.length !== expected.length) {
      return miss(path, `an array of ${expected.length}`, actual, `${actual.length} items`);
    }
    for (let i = 0; i < expected.length; i++) {
      const m = match(expected[i], actual[i], `${path}.${i}`, literal);
      if (m) {
        return m;
      }
    }
    return null;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) {
      return miss(path, 'an object', actual);
    }
    for (const [key, want] of Object.entries(expected)) {
      const m = match(want, actual[key], `${path}.${key}`, literal);
      if (m) {
        return m;
      }
    }
    return null;
  }
  return deepEqual(expected, actual) ? null : miss(path, render(expected), actual);
}

function matchMatcher(m: Record<string, unknown>, actual: unknown, path: string): Mismatch | null {
  for (const part of (m.allOf as unknown[] | undefined) ?? []) {
    const inner = match(part, actual, path);
    if (inner) {
      return inner;
    }
  }
  if (Object.keys(m).every((k) => k === 'allOf')) {
    return null;
  }
  if (m.exists !== undefined && (actual !== undefined) !== m.exists) {
    return miss(path, m.exists ? 'present' : 'absent', actual);
  }
  if (actual === undefined) {
    // absent, and the matcher asked for nothing but absence (or had no more to say)
    return m.exists === false || Object.keys(m).every((k) => k === 'exists')
      ? null
      : miss(path, describe(m), actual);
  }
  const checks: [string, Check][] = [
    ['type', (v) => typeOk(m.type as string, v)],
    ['match', (v) => typeof v === 'string' && new RegExp(m.match as string).test(v)],
    ['gte', (v) => isNumber(v) && v >= (m.gte as number)],
    ['lte', (v) => isNumber(v) && v <= (m.lte as number)],
    ['oneOf', (v) => (m.oneOf as unknown[]).some((o) => deepEqual(o, v))],
    ['uuid', (v) => typeof v === 'string' && UUID.test(v)],
    ['datetime', (v) => typeof v === 'string' && DATETIME.test(v) && !Number.isNaN(Date.parse(v))],
    ['equals', (v) => deepEqual(m.equals, v)],
  ];
  for (const [key, check] of checks) {
    if (m[key] !== undefined && !check(actual)) {
      return miss(path, describe(m), actual);
    }
  }
  if (m.length !== undefined) {
    const length = lengthOf(actual);
    if (length === undefined) {
      return miss(path, `something with a length (${describe(m)})`, actual);
    }
    const inner = isMatcher(m.length) ? match(m.length, length, `${path}.length`) : null;
    if (inner || (!isMatcher(m.length) && length !== m.length)) {
      return miss(path, describe(m), actual, `length ${length}`);
    }
  }
  return null;
}

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(v);
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isPlainObject(v);
    default:
      return typeof v === type;
  }
}

function lengthOf(v: unknown): number | undefined {
  if (typeof v === 'string' || Array.isArray(v)) {
    return v.length;
  }
  return isPlainObject(v) ? Object.keys(v).length : undefined;
}

/** A matcher in words: `a string`, `a uuid`, `>= 1 and <= 5`. */
export function describe(m: Record<string, unknown>): string {
  const parts: string[] = [];
  if (m.type !== undefined) {
    parts.push(
      m.type === 'integer' || m.type === 'array' || m.type === 'object'
        ? `an ${m.type}`
        : `a ${m.type}`,
    );
  }
  if (m.match !== undefined) {
    parts.push(`matching /${m.match}/`);
  }
  if (m.gte !== undefined) {
    parts.push(`>= ${m.gte}`);
  }
  if (m.lte !== undefined) {
    parts.push(`<= ${m.lte}`);
  }
  if (m.oneOf !== undefined) {
    parts.push(`one of ${render(m.oneOf)}`);
  }
  if (m.uuid) {
    parts.push('a uuid');
  }
  if (m.datetime) {
    parts.push('an ISO date-time');
  }
  if (m.equals !== undefined) {
    parts.push(render(m.equals));
  }
  if (m.length !== undefined) {
    parts.push(`length ${isMatcher(m.length) ? describe(m.length) : String(m.length)}`);
  }
  if (m.exists !== undefined) {
    parts.push(m.exists ? 'present' : 'absent');
  }
  if (m.allOf !== undefined) {
    parts.push(`all of ${render(m.allOf)}`);
  }
  return parts.join(' and ');
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((v, i) => deepEqual(v, b[i]))
    );
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}

const MAX_RENDER = 200;

/** A value as it reads in a message: JSON, cut short; `(missing)` for a field that is not there. */
export function render(value: unknown): string {
  if (value instanceof Literal) {
    return render(value.value);
  }
  if (value === undefined) {
    return '(missing)';
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_RENDER ? `${text.slice(0, MAX_RENDER)}...` : text;
}

function miss(path: string, expected: string, actual: unknown, got?: string): Mismatch {
  return { path, expected, got: got ? `${render(actual)} (${got})` : render(actual) };
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

/**
 * A header value against its expectation: headers are text, so a literal number matches its
 * digits, and a numeric matcher (`{gte: 0}`, `{type: integer}`) reads a numeric value as a number
 * (X-RateLimit-Remaining, Retry-After).
 */
export function matchHeader(
  expected: unknown,
  value: string | undefined,
  path: string,
): Mismatch | null {
  if (isMatcher(expected) && value !== undefined && NUMERIC.test(value)) {
    const numeric =
      expected.gte !== undefined ||
      expected.lte !== undefined ||
      expected.type === 'number' ||
      expected.type === 'integer';
    return match(expected, numeric ? Number(value) : value, path);
  }
  if (typeof expected === 'number' || typeof expected === 'boolean') {
    return match(String(expected), value, path);
  }
  return match(expected, value, path);
}
