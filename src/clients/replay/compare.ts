// --compare: what differs between a recorded answer and the new one. Only status, the error's
// code and field, which fields are present, each value's JSON type and list lengths: values
// themselves (ids, timestamps, request ids, numbers the server assigns) legitimately differ.

export interface Answer {
  status: number;
  /** The body as text; null when there was none. */
  body: string | null;
  /** The log kept only the first 16 KB of it. */
  truncated: boolean;
}

export interface Comparison {
  differences: string[];
  /** Why less than the whole answer was compared. */
  note: string | null;
}

/** More than this many differences in one answer are summed up in one last line. */
const MOST = 20;

export function compareAnswers(recorded: Answer, now: Answer): Comparison {
  const out: string[] = [];
  if (recorded.status !== now.status) {
    out.push(`status: ${now.status}, recorded ${recorded.status}`);
  }
  if (recorded.truncated) {
    return {
      differences: out,
      note: 'the log truncated the recorded answer: status compared only',
    };
  }
  const was = parse(recorded.body);
  const is = parse(now.body);
  const wasError = errorOf(was);
  const isError = errorOf(is);
  if (wasError || isError) {
    compareErrors(wasError, isError, out);
    return { differences: out, note: null };
  }
  if (recorded.status === now.status) {
    if (was === NOT_JSON || is === NOT_JSON) {
      if (was !== is && was !== undefined && is !== undefined) {
        out.push(`body: ${kind(is)}, recorded ${kind(was)}`);
      }
    } else {
      walk(was, is, '', out);
    }
  }
  return { differences: cap(out), note: null };
}

const NOT_JSON = Symbol('not JSON');

function parse(body: string | null): unknown {
  if (body === null || body === '') {
    return undefined;
  }
  try {
    return JSON.parse(body);
  } catch {
    return NOT_JSON;
  }
}

const kind = (value: unknown) => (value === NOT_JSON ? 'text' : 'JSON');

interface ErrorFields {
  code: unknown;
  field: unknown;
}

/** The spec's envelope, `{error: {code, message, field?, request_id, doc_url}}`. */
function errorOf(body: unknown): ErrorFields | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) {
    return undefined;
  }
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null || !('code' in error)) {
    return undefined;
  }
  const { code, field } = error as { code: unknown; field?: unknown };
  return { code, field: field ?? null };
}

function compareErrors(
  was: ErrorFields | undefined,
  is: ErrorFields | undefined,
  out: string[],
): void {
  const show = (value: unknown) => (value === null || value === undefined ? 'none' : String(value));
  if (was?.code !== is?.code) {
    out.push(`error code: ${show(is?.code)}, recorded ${show(was?.code)}`);
  }
  // An error on one side only still shows its field: a new 400 names what it refused.
  if (show(was?.field) !== show(is?.field)) {
    out.push(`error field: ${show(is?.field)}, recorded ${show(was?.field)}`);
  }
}

type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array' | 'nothing';

function typeOf(value: unknown): JsonType {
  if (value === undefined) {
    return 'nothing';
  }
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'array';
  }
  return typeof value as JsonType;
}

function walk(was: unknown, is: unknown, path: string, out: string[]): void {
  const [a, b] = [typeOf(was), typeOf(is)];
  const at = path === '' ? 'body' : path;
  if (a !== b) {
    out.push(`${at}: type ${b}, recorded ${a}`);
    return;
  }
  if (a === 'array') {
    const [x, y] = [was as unknown[], is as unknown[]];
    if (x.length !== y.length) {
      out.push(`${at}: length ${y.length}, recorded ${x.length}`);
    }
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      walk(x[i], y[i], join(path, String(i)), out);
    }
    return;
  }
  if (a === 'object') {
    const [x, y] = [was as Record<string, unknown>, is as Record<string, unknown>];
    for (const key of Object.keys(x)) {
      if (!(key in y)) {
        out.push(`${join(path, key)}: only in the recorded answer`);
      } else {
        walk(x[key], y[key], join(path, key), out);
      }
    }
    for (const key of Object.keys(y)) {
      if (!(key in x)) {
        out.push(`${join(path, key)}: only in the new answer`);
      }
    }
  }
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

function cap(out: string[]): string[] {
  return out.length <= MOST
    ? out
    : [...out.slice(0, MOST - 1), `and ${out.length - MOST + 1} more differences`];
}
