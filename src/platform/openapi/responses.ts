import { z } from '@hono/zod-openapi';
import { type ErrorCode, errorStatus } from '../errors';
import { ErrorSchema } from './schemas';

// STYLE: error responses are declared once and spread into every route.
const describeCode: Record<ErrorCode, string> = {
  invalid_request: 'Something in the request is wrong; `field` names it',
  unauthorized: 'Credential missing, wrong or revoked',
  plan_required: 'The workspace has no active subscription',
  forbidden: 'A read-only credential attempted a change',
  not_found: 'No such record in this workspace',
  method_not_allowed: 'Wrong verb for the path',
  conflict: 'Idempotency-Key reused for another request, or its first request is still running',
  payload_too_large: 'Body over 25 MB',
  rate_limited: 'Over the rate limit; see Retry-After',
  server_error: 'Fault; retry shortly',
};

const header = (description: string) => z.string().optional().openapi({ description });

export const standardHeaders = z.object({
  'X-Request-Id': header('Id of this request; also `request_id` in an error body'),
  'X-RateLimit-Limit': header('Requests allowed in the current window'),
  'X-RateLimit-Remaining': header('Requests left in the current window'),
  'X-RateLimit-Reset': header('Seconds until the window resets'),
  'Idempotent-Replayed': header('`true` when this is the stored answer to an earlier request'),
});
const rateLimitedHeaders = standardHeaders.extend({
  'Retry-After': header('Seconds to wait before retrying'),
});

export function errorResponses(...codes: ErrorCode[]) {
  const out: Record<
    number,
    {
      description: string;
      headers: typeof standardHeaders;
      content: { 'application/json': { schema: typeof ErrorSchema } };
    }
  > = {};
  for (const code of codes) {
    out[errorStatus[code]] = {
      description: describeCode[code],
      headers: code === 'rate_limited' ? rateLimitedHeaders : standardHeaders,
      content: { 'application/json': { schema: ErrorSchema } },
    };
  }
  return out;
}

/** Every authenticated operation may answer these (spec, Endpoints). */
export const baseErrors = [
  'unauthorized',
  'plan_required',
  'rate_limited',
  'server_error',
] as const;
/** Every write adds these. */
export const writeErrors = [
  'invalid_request',
  'forbidden',
  'conflict',
  'payload_too_large',
] as const;

/** A control API call that may carry a body: it may also be refused as too large (413). */
export const adminWriteErrors = (...codes: ErrorCode[]) =>
  errorResponses(...codes, 'payload_too_large');

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  headers: standardHeaders,
  content: { 'application/json': { schema } },
});
