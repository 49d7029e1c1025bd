import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ScopeDropped } from '../../store';
import { type AppEnv, requestAppUrl } from '../app-env';
import { ApiError, errorBody } from './index';

export function errorResponse(c: Context<AppEnv>, err: ApiError): Response {
  // decisions.md: doc_url is a page on the server that answered, whatever Host the caller sent.
  const res = c.json(errorBody(err, c.get('requestId') ?? '', requestAppUrl(c)), err.status);
  for (const [name, value] of Object.entries(err.headers)) {
    res.headers.set(name, value);
  }
  return res;
}

// Hono and its validators throw HTTPException for what they catch before our code runs.
function fromHttpException(err: HTTPException): ApiError {
  switch (err.status) {
    case 400:
      return new ApiError('invalid_request', 'the request body is not valid JSON');
    case 413:
      return new ApiError('payload_too_large', 'the request body is larger than 25 MB');
    case 415:
      return new ApiError(
        'invalid_request',
        'send the body as JSON with the header Content-Type: application/json',
      );
    case 404:
      return new ApiError('not_found', 'no such route');
    default:
      return new ApiError('server_error', 'something went wrong on our side; retry shortly');
  }
}

export function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) {
    return err;
  }
  if (err instanceof HTTPException) {
    return fromHttpException(err);
  }
  if (err instanceof ScopeDropped) {
    // decisions.md, Workspaces: a call that began before its workspace was deleted and wrote after.
    return new ApiError('not_found', 'the workspace was deleted while this request ran');
  }
  return undefined;
}

/**
 * A client that went away while sending its body (Node's http server rejects the read with
 * ECONNRESET "aborted", a chunk framed wrong among the ways): no fault of ours, so no trace in
 * our log (found by an integrator's probe); the answer goes nowhere, but it is the client's.
 */
const wentAway = (err: unknown) =>
  err instanceof Error &&
  (err as NodeJS.ErrnoException).code === 'ECONNRESET' &&
  err.message === 'aborted';

// DESIGN, Errors: an unexpected fault is a 500 with fixed text; the detail goes to our log only.
export const onError =
  (log: (line: string) => void): ErrorHandler<AppEnv> =>
  (err, c) => {
    const known = toApiError(err);
    if (known) {
      return errorResponse(c, known);
    }
    if (wentAway(err)) {
      return errorResponse(c, new ApiError('invalid_request', 'the request body was cut short'));
    }
    log(
      `svc: ${c.get('requestId') ?? '-'} ${c.req.method} ${c.req.path} failed: ${String((err as Error)?.stack ?? err)}`,
    );
    return errorResponse(
      c,
      new ApiError('server_error', 'something went wrong on our side; retry shortly'),
    );
  };
