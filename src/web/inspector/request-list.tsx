import type { Handler } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/errors';
import type { LoggedRequest, RequestFilter } from '../../platform/request-log';
import type { Runtime } from '../../platform/runtime';
import type { Inspector } from './forms';
import { InspectorPage, StatusBadge, when } from './parts';
import { type FILTERS, filterOf, queryOf, type Row, rowOf } from './request-rows';

// The request log (spec, Limits: 14 days; /__admin/requests), GET /inspector/requests: newest
// first, with its filters, a page a call; the page's script prepends the live stream's rows.

const PER_PAGE = 50;

interface Found {
  data: LoggedRequest[];
  hasMore: boolean;
}

/** A page of the log under `filter`, or why there is none: a filter or cursor it refuses. */
async function logPage(
  rt: Runtime,
  filter: RequestFilter,
  cursor: string | undefined,
  refused: string | undefined,
): Promise<{ found: Found; problem?: string | undefined }> {
  const none: Found = { data: [], hasMore: false };
  if (refused !== undefined) {
    return { found: none, problem: refused };
  }
  try {
    return { found: await rt.requestLog.query(filter, PER_PAGE, cursor) };
  } catch (err) {
    if (!(err instanceof ApiError)) {
      throw err;
    }
    return { found: none, problem: err.message };
  }
}

export const requestListPage =
  (ins: Inspector): Handler<AppEnv> =>
  async (c) => {
    const { rt } = ins;
    const { filter, problem: refused } = filterOf(c);
    const cursor = c.req.query('cursor') || undefined;
    const { found, problem } = await logPage(rt, filter, cursor, refused);
    const rows = found.data.map((e) => rowOf(rt, e.id, e));
    const last = found.data.at(-1);
    // Live only on the first page: a row from the stream belongs above the newest one.
    const live = cursor === undefined ? `/inspector/requests/stream${queryOf(filter)}` : undefined;
    return c.html(
      <InspectorPage scope={c.get('adminScope')} title="Requests" section="requests">
        <h1>
          Requests{' '}
          <span class="badge live" data-live-state hidden>
            live
          </span>
        </h1>
        <p class="muted">
          Every call made with a credential in the last 14 days, newest first. Keys are never
          logged.
        </p>
        <FilterForm filter={filter} />
        {problem ? (
          <div class="notice bad" role="alert">
            {problem}
          </div>
        ) : null}
        <RequestTable rows={rows} live={live} />
        {rows.length === 0 && !problem ? (
          <p class="muted" id="no-requests">
            No call matches yet.
          </p>
        ) : null}
        <PageLinks filter={filter} cursor={cursor} older={found.hasMore ? last?.id : undefined} />
      </InspectorPage>,
      problem ? 400 : 200,
    );
  };

/** Back to the newest page when on an older one; on to the page after `older`, the last id. */
function PageLinks(props: {
  filter: RequestFilter;
  cursor: string | undefined;
  older: string | undefined;
}) {
  return (
    <p>
      {props.cursor !== undefined ? (
        <a href={`/inspector/requests${queryOf(props.filter)}`}>Newest</a>
      ) : null}{' '}
      {props.older ? (
        <a href={`/inspector/requests${queryOf(props.filter, { cursor: props.older })}`}>Older</a>
      ) : null}
    </p>
  );
}

function FilterForm({ filter }: { filter: RequestFilter }) {
  const input = (name: (typeof FILTERS)[number], label: string, hint: string) => (
    <label class="inline">
      {label} <input name={name} value={filter[name] ?? ''} placeholder={hint} size={14} />
    </label>
  );
  return (
    <form method="get" action="/inspector/requests" class="card filters">
      {input('workspace_id', 'Workspace', 'id')} {input('key_id', 'Key', 'id')}{' '}
      {input('method', 'Method', 'GET')} {input('path', 'Path', '/v1/jobs')}{' '}
      {input('status', 'Status', '404, 4xx or 0')} {input('fault', 'Fault', 'flt_…, true')}{' '}
      {input('since', 'Since', '2026-11-25T09:00Z')} {input('until', 'Until', 'ISO date-time')}{' '}
      <button type="submit">Filter</button> <a href="/inspector/requests">Clear</a>
    </form>
  );
}

/** The rows; `live` is the stream whose rows the script puts on top. */
function RequestTable({ rows, live }: { rows: Row[]; live: string | undefined }) {
  return (
    <table class="requests">
      <thead>
        <tr>
          <th>Time</th>
          <th>Method</th>
          <th>Path</th>
          <th>Status</th>
          <th>Duration</th>
          <th>Key</th>
          <th>Workspace</th>
          <th>Fault</th>
        </tr>
      </thead>
      <tbody id="request-rows" data-stream={live}>
        {rows.map((row) => (
          <RowView row={row} />
        ))}
      </tbody>
    </table>
  );
}

function RowView({ row }: { row: Row }) {
  return (
    <tr>
      <td>
        <a href={`/inspector/requests/${row.id}`}>{when(row.at)}</a>
      </td>
      <td class="mono">{row.method}</td>
      <td class="mono">{row.target}</td>
      <td>
        <StatusBadge status={row.status} />
      </td>
      <td class="money">{`${row.duration_ms} ms`}</td>
      <td>
        <a href={`/inspector/requests?key_id=${encodeURIComponent(row.key_id)}`}>{row.key}</a>
      </td>
      <td>
        <a href={`/inspector/requests?workspace_id=${encodeURIComponent(row.workspace_id)}`}>
          {row.workspace}
        </a>
      </td>
      <td class="mono">
        {row.fault ? (
          <a href={`/inspector/requests?fault=${encodeURIComponent(row.fault)}`}>{row.fault}</a>
        ) : null}
      </td>
    </tr>
  );
}
