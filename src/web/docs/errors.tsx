import type { Context } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { type ErrorCode, errorCodes, errorStatus } from '../../platform/errors';
import { Page } from '../ui/layout';
import { DocsNav } from './nav';

// Every error's `doc_url` points here (`/docs/errors#<code>`), at the server that answered, so the
// link works offline; each row's id is its code.
const meaning: Record<ErrorCode, string> = {
  invalid_request:
    'Something in the request is wrong: a bad date, enumeration value or cursor, an unknown stage, a missing required field. `field` names it. Fix the request; retrying it unchanged fails the same way.',
  unauthorized: 'The credential is missing, wrong or revoked.',
  plan_required:
    'The workspace has no active subscription; the API is included on every paid plan.',
  forbidden:
    'A read-only credential attempted a change; or a file download link that expired or was not made by svc.',
  not_found: 'No such record in this workspace (or no such route).',
  method_not_allowed:
    'The path exists, but not with this verb; the Allow header lists the verbs it takes.',
  conflict:
    'The Idempotency-Key was reused for a different request, or its first request is still running; or the record is in a state that refuses the change.',
  payload_too_large: 'The file is over 25 MB.',
  rate_limited: 'Over the rate limit. Wait the seconds in Retry-After.',
  server_error: 'A fault on our side. Retry shortly, with the same Idempotency-Key on writes.',
};

/** `a \`b\` c` as text with the back-quoted parts in <code>. */
function withCode(text: string) {
  return text.split('`').map((part, i) => (i % 2 === 1 ? <code>{part}</code> : part));
}

/** GET /docs/errors */
export function errorsPage(c: Context<AppEnv>) {
  return c.html(
    <Page title="Errors" area="docs" styles={['/_app/docs.css']}>
      <h1>Errors</h1>
      <DocsNav current="/docs/errors" />
      <p>
        Every error body is{' '}
        <code>{'{"error": {"code", "message", "field"?, "request_id", "doc_url"}}'}</code>. Branch
        on <code>code</code>; <code>message</code> is for people and may change;{' '}
        <code>request_id</code> is also the <code>X-Request-Id</code> header.
      </p>
      <table>
        <thead>
          <tr>
            <th>code</th>
            <th>HTTP</th>
            <th>meaning</th>
          </tr>
        </thead>
        <tbody>
          {errorCodes.map((code) => (
            <tr id={code}>
              <td>
                <code>{code}</code>
              </td>
              <td>{errorStatus[code]}</td>
              <td>{withCode(meaning[code])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Page>,
  );
}
