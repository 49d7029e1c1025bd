import type { Socket } from 'node:net';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type AppEnv, requestAppUrl } from '../app-env';
import { ApiError, errorBody, errorStatus } from '../errors';
import { setAnswerHeader } from '../http/headers';
import { allowFor, type MethodsAt } from './allow';
import type { Fault, Faults } from './registry';

/** decisions.md, Faults: the longest delay a fault may hold a call or a delivery (60 s). */
export const MAX_DELAY_MS = 60_000;
/** decisions.md, Faults: a faulted 429 asks for the shortest wait a real one can (1 s). */
const FAULT_RETRY_AFTER = '1';

/** The message of a faulted answer's envelope: how a log line shows the fault answered. */
export const faultMessage = (id: string) => `injected fault ${id}`;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The spec code for a status when none is given: the one with that status, else server_error. */
export function codeOf(action: Fault['action']) {
  if (action.code) {
    return action.code;
  }
  const same = Object.entries(errorStatus).find(([, s]) => s === action.status);
  return (same?.[0] as keyof typeof errorStatus | undefined) ?? 'server_error';
}

/**
 * Decided after the credential, rate and plan checks and before the idempotency key and the
 * route, so a faulted call changes no data and a retry with the same key runs for real. Returns a
 * Response when the fault answers instead of the route; undefined to go on (no fault, or a delay).
 * `methodsAt` gives a faulted 405 its `Allow`; without it the header is left out.
 */
export async function applyFault(
  faults: Faults,
  c: Context<AppEnv>,
  methodsAt?: MethodsAt,
): Promise<Response | undefined> {
  const credential = c.get('credential');
  if (!credential) {
    return undefined;
  }
  const fault = await faults.forCall({
    method: c.req.method,
    path: c.req.path,
    workspaceId: credential.workspaceId,
    keyId: credential.id,
  });
  if (!fault) {
    return undefined;
  }
  c.set('fault', fault.id);
  const { action } = fault;
  if (action.delay_ms) {
    await sleep(action.delay_ms);
  }
  if (action.drop) {
    return drop(c);
  }
  if (action.status !== undefined || action.code !== undefined) {
    return answer(c, fault, methodsAt);
  }
  return undefined;
}

/**
 * The fault's answer: the spec envelope, with the headers the spec gives that status on a real
 * answer (decisions.md, Faults). A real 401 carries no WWW-Authenticate, so a faulted one neither.
 */
function answer(c: Context<AppEnv>, fault: Fault, methodsAt: MethodsAt | undefined): Response {
  const code = codeOf(fault.action);
  const status = fault.action.status ?? errorStatus[code];
  const headers: Record<string, string> = {};
  if (status === 429) {
    headers['Retry-After'] = FAULT_RETRY_AFTER;
    if (c.get('rateCounted')) {
      // spec, Limits: a refused call's window is spent until it resets, when Retry-After says.
      setAnswerHeader(c, 'X-RateLimit-Remaining', '0');
      setAnswerHeader(c, 'X-RateLimit-Reset', FAULT_RETRY_AFTER);
    }
  }
  if (status === 405 && methodsAt) {
    headers.Allow = allowFor(methodsAt(c.req.path), c.req.method);
  }
  const body = errorBody(
    new ApiError(code, faultMessage(fault.id)),
    c.get('requestId') ?? '',
    requestAppUrl(c),
  );
  const res = c.json(body, status as ContentfulStatusCode);
  for (const [name, value] of Object.entries(headers)) {
    res.headers.set(name, value);
  }
  return res;
}

/**
 * The socket reset with no answer: a client sees ECONNRESET ("socket hang up"); what the route
 * returns after that is written nowhere. In-process (no socket, as under `app.request`) the answer
 * is `Response.error()`, status 0, as fetch's own. The request log says status 0 either way.
 */
function drop(c: Context<AppEnv>): Response {
  c.set('dropped', true);
  const env = c.env as { incoming?: { socket?: Socket } } | undefined;
  const socket = env?.incoming?.socket;
  if (socket) {
    socket.resetAndDestroy();
    // The Node adapter refuses status 0; this goes to a closed socket and is never seen.
    return new Response(null, { status: 500 });
  }
  return Response.error();
}
