import { readFile } from 'node:fs/promises';
import type { NewEntry } from '../../src/platform/request-log/log';
import type { Harness, TestWorkspace } from './harness';

// Request-log tests hand thousands of calls to the log directly (a request each through HTTP
// would take minutes) and read the files it writes.

/** The lines of a log file; none when it is missing. */
export const linesOf = async (path: string) =>
  (await readFile(path, 'utf8').catch(() => '')).split('\n').filter((l) => l !== '');

/** `n` calls of `ws`, numbered from `from` in their path, handed to the log as the middleware does. */
export function logCalls(
  h: Harness,
  ws: TestWorkspace,
  from: number,
  n: number,
  {
    status = 404,
    response = (i: number): NewEntry['response'] => ({ json: JSON.stringify({ call: i }) }),
  }: { status?: number; response?: (i: number) => NewEntry['response'] } = {},
): void {
  for (let i = from; i < from + n; i++) {
    h.rt.requestLog.append({
      at: h.rt.clock.iso(),
      method: 'GET',
      path: `/v1/jobs/call-${i}`,
      query: {},
      status,
      duration_ms: 0.1,
      key_id: ws.keys.write.id,
      credential_kind: 'api_key',
      workspace_id: ws.id,
      request_id: `req_${i}`,
      request_headers: {},
      request_body: null,
      request_body_truncated: false,
      response: response(i),
    });
  }
}
