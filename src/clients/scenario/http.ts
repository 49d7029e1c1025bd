import { withControlAuth } from '../control-token';
// One HTTP exchange of the runner. fetch, with redirects not followed (a 3xx is an answer to
// check) and a bound on time, so a server that hangs fails the step instead of the run.

export interface Outgoing {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | FormData;
  /** Aborts the exchange (Ctrl-C): it ends with an Interrupted error. */
  signal?: AbortSignal | undefined;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, else its text (undefined when empty). */
  body: unknown;
}

/** How long one exchange may take before it is given up (a setting for the tests). */
export const limits = { timeoutMs: 30_000 };

/** The run was interrupted (SIGINT, SIGTERM): the step stops where it is. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted');
  }
}

export class NetworkError extends Error {
  /** The socket's error code (ECONNREFUSED, ENOTFOUND, ...), when there is one. */
  readonly code: string | undefined;
  /** What went wrong, without the request (`bad port`). */
  readonly why: string;
  constructor(message: string, code?: string, why = message) {
    super(message);
    this.code = code;
    this.why = why;
  }
}

const CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'no such host',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ETIMEDOUT: 'timed out',
};

/** `connection refused`, `no such host`: what a person reads for a failed connection. */
export function reason(err: NetworkError): string {
  return (err.code !== undefined ? CODES[err.code] : undefined) ?? err.why;
}

export { useControlToken } from '../control-token';

/** `out`, with the control API's credential when it goes there and names none itself. */
const withControlToken = (out: Outgoing): Outgoing => ({
  ...out,
  headers: withControlAuth(out.url, out.headers),
});

export async function send(given: Outgoing): Promise<Answer> {
  const out = withControlToken(given);
  let res: Response;
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  try {
    res = await fetch(out.url, {
      method: out.method,
      headers: out.headers,
      body: out.body,
      redirect: 'manual',
      signal: out.signal ? AbortSignal.any([timeout, out.signal]) : timeout,
    });
  } catch (err) {
    if (out.signal?.aborted) {
      throw new Interrupted();
    }
    if (timeout.aborted) {
      const why = `no answer within ${Math.round(limits.timeoutMs / 1000)} s`;
      throw new NetworkError(`${out.method} ${out.url} failed: ${why}`, 'TIMEOUT', why);
    }
    // fetch wraps the socket error: "fetch failed" says nothing, its cause does
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    const code = (cause as { code?: unknown } | null)?.code;
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new NetworkError(
      `${out.method} ${out.url} failed: ${why}`,
      typeof code === 'string' ? code : undefined,
      why,
    );
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    if (out.signal?.aborted) {
      throw new Interrupted();
    }
    throw err;
  }
  return { status: res.status, headers: res.headers, text, body: parseBody(text) };
}

function parseBody(text: string): unknown {
  if (text === '') {
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** JSON to a URL, answered in JSON: the control API's calls. */
export function sendJson(
  method: string,
  url: string,
  body?: unknown,
  key?: string,
  signal?: AbortSignal,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (key !== undefined) {
    headers.Authorization = `Bearer ${key}`;
  }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  return send({
    method,
    url,
    headers,
    signal,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
