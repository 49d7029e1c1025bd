// spec, Errors: one envelope for every failure; branch on `code`, never on the message.
export const errorStatus = {
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
} as const;

export type ErrorCode = keyof typeof errorStatus;
export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    field?: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.code = code;
    this.field = field;
    this.headers = headers;
  }

  get status(): (typeof errorStatus)[ErrorCode] {
    return errorStatus[this.code];
  }
}

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    field?: string;
    request_id: string;
    doc_url: string;
  };
}

export function errorBody(err: ApiError, requestId: string, origin: string): ErrorBody {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.field === undefined ? {} : { field: err.field }),
      request_id: requestId,
      doc_url: `${origin}/docs/errors#${err.code}`,
    },
  };
}

export const invalid = (message: string, field?: string) =>
  new ApiError('invalid_request', message, field);
export const notFound = (what: string) => new ApiError('not_found', `no such ${what}`);

/** An ApiError about a part of a larger body: its field named from the body's top. */
const prefixed = (err: unknown, prefix: string): unknown =>
  err instanceof ApiError
    ? new ApiError(
        err.code,
        err.message,
        err.field ? `${prefix}.${err.field}` : prefix,
        err.headers,
      )
    : err;

/** Runs `check` on the part of a body at `prefix`; a refusal names its field from the top. */
export function under<T>(prefix: string, check: () => T): T {
  try {
    const value = check();
    return (
      value instanceof Promise
        ? value.catch((err: unknown) => {
            throw prefixed(err, prefix);
          })
        : value
    ) as T;
  } catch (err) {
    throw prefixed(err, prefix);
  }
}
